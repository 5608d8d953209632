/**
 * The text patterns of the security lint group (issue #28; docs/lint.md "Security"), pure: each
 * detector takes one text (a SKILL.md or a supporting file) and returns what it matched, with the
 * 1-based line. No I/O, no finding shapes (security.ts turns matches into findings).
 *
 * The shapes follow what public scanners of agent skills report, narrowed until the 1,206 real
 * skills of shared/bench/corpus-real stay quiet except where a reviewer would agree:
 * - Cisco AI Defense skill-scanner (github.com/cisco-ai-defense/skill-scanner):
 *   `skill_scanner/data/packs/core/yara/behavior_chain_detection.yara` (raw-IP download piped to an
 *   interpreter, `base64 -d | bash`, PowerShell `-EncodedCommand`, credential reads sent to webhooks
 *   and paste sites), `yara/credential_harvesting_generic.yara` (credential file paths),
 *   `signatures/obfuscation.yaml` (decode-and-execute chains, hex blobs) and
 *   `signatures/data_exfiltration.yaml` (sensitive files, outbound sends);
 * - Snyk's ToxicSkills audit of 3,984 skills (snyk.io, February 2026): remote code and
 *   password-protected downloads, base64-obfuscated payloads, credential theft from ~/.ssh and
 *   ~/.aws, Unicode smuggling.
 */
import { escapeRegExp } from '../text/index.js';

/** One match: the 1-based line, the matched text (raw: the caller escapes it) and what it is. */
export interface PatternMatch {
  readonly line: number;
  readonly text: string;
  readonly kind: string;
}

// Longest match text kept (the caller quotes it in a message).
const MAX_MATCH_CHARS = 160;

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function matchesOf(text: string, re: RegExp, kind: string): PatternMatch[] {
  const out: PatternMatch[] = [];
  for (const m of text.matchAll(re)) {
    out.push({ line: lineAt(text, m.index), text: m[0].slice(0, MAX_MATCH_CHARS), kind });
  }
  return out;
}

// A shell that runs what it reads on standard input (`| sh`, `| sudo bash -s -- --yes`, `| /bin/bash`,
// `| env bash`, `| /usr/bin/env zsh`, `| $SHELL`), or an interpreter given no program of its own
// (`| python3`, `| node -`; not `| python3 -m json.tool`).
const SHELL = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:(?:\/usr)?(?:\/local)?\/bin\/)?(?:env\s+(?:-\S+\s+)*)?(?:(?:(?:ba|z|k|da|fi|a)?sh|\$\{?SHELL\}?)(?![-.\w])|(?:python[23]?|perl|ruby|node|php)(?:\s+-)?(?=\s*(?:$|[;&|)\x60"'#])))`;
// A downloader command naming what it fetches (a URL, a host name or a variable), up to its pipe, on
// one line: `curl … | sh` in prose about the danger names nothing and is not a match.
// The arguments are taken whole (a lookahead and its backreference: no backtracking into them, so
// a long line costs time in proportion to its length, not a power of it).
const FETCH = String.raw`\b(?:curl|wget|fetch)\s+(?=[^\n|;&]*?(?::\/\/|\$|\w\.\w))(?=(?<fetchArgs>[^\n|;&]*))\k<fetchArgs>`;
// Pipeline stages that pass a download on unchanged or unpacked (`| tee x | sh`, `| gunzip | sh`).
const PASS = String.raw`(?:\|\s*(?:tee|cat|gunzip|zcat|bzcat|gzip\s+-d|xz\s+-d|tr|sed|base64\s+(?:-d|--decode|-D))\b[^\n|;&]*)*`;
// A shell or interpreter given a file or a substitution to run (`bash f`, `. f`, `source f`).
const RUNNER = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:(?:\/usr)?\/bin\/)?(?:(?:ba|z|k|da)?sh|source|\.|python[23]?|perl|ruby|node)`;

/**
 * The text the shell patterns read: line continuations (a line ending in `\`, `|`, `&&` or `||`)
 * joined to the next line, and the quoting tricks that hide a command name from a plain pattern
 * undone inside words (`c"u"rl`, `'cu'rl`, `cu''rl`, `c\url`, `\curl`: the shell reads each as
 * `curl`). `line` maps a line of the normalised text back to the line of `text` it starts on.
 *
 * A line longer than SHELL_WINDOW characters is cut into windows of SHELL_WINDOW that overlap by
 * half (each window its own line, mapped to the same original line): the shell patterns backtrack
 * within a line, so a long crafted line would otherwise cost time growing with a power of its
 * length (a hang); every command of up to SHELL_WINDOW / 2 characters lies whole in some window.
 * A match found twice in an overlap is the same match (the caller drops repeats).
 */
export function normalizeShell(text: string): { text: string; line: (n: number) => number } {
  const lines = text.split('\n');
  const out: string[] = [];
  const origin: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    // Pieces joined once at the end (a string grown line by line would cost the square of its length).
    const pieces = [lines[i]!];
    while (i + 1 < lines.length && /(?:\\|\||&&)[ \t]*\r?$/.test(pieces.at(-1)!)) {
      pieces[pieces.length - 1] = pieces.at(-1)!.replace(/\\[ \t]*\r?$/, '');
      pieces.push(lines[++i]!.trimStart());
    }
    const line = unquoteWords(pieces.join(' '));
    if (line.length <= SHELL_WINDOW) {
      out.push(line);
      origin.push(start + 1);
    } else {
      for (let at = 0; at < line.length - SHELL_WINDOW / 2; at += SHELL_WINDOW / 2) {
        out.push(line.slice(at, at + SHELL_WINDOW));
        origin.push(start + 1);
      }
    }
  }
  return { text: out.join('\n'), line: (n) => origin[n - 1] ?? n };
}

/**
 * A download saved to a file (`curl … -o f`, `wget -O f …`, `curl … > f`) whose next command (after
 * `&&` or `;`, or on the next line when `nextLine`) is `then(f)`: found command by command, in time
 * proportional to the text (one pattern spanning both commands backtracks without bound).
 */
function downloadThen(
  text: string,
  then: (file: string) => RegExp,
  kind: string,
  nextLine = true,
): PatternMatch[] {
  const out: PatternMatch[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!/\b(?:curl|wget)\b/i.test(line)) return;
    // Commands and the separators between them: [cmd, sep, cmd, sep, …].
    const parts = line.split(/(&&|\|\||;|\|)/);
    for (let k = 0; k < parts.length; k += 2) {
      const cmd = parts[k]!;
      const dl = /\b(?:curl|wget)\b/i.exec(cmd);
      if (!dl) continue;
      const file = /(?:\s-o|\s-O|--output(?:-document)?|>)[=\s]*["']?([\w./~${}-]*\w)/.exec(
        cmd.slice(dl.index),
      )?.[1];
      if (file === undefined) continue;
      // The next command after && or ; (a pipe sends the output elsewhere), or the next line.
      const sep = parts[k + 1];
      const next =
        sep === undefined
          ? nextLine
            ? lines[i + 1]
            : undefined
          : sep === '&&' || sep === ';'
            ? parts[k + 2]
            : undefined;
      if (next === undefined || !then(file).test(next)) continue;
      out.push({
        line: i + 1,
        text: `${cmd.slice(dl.index).trim()} … ${next.trim()}`.slice(0, MAX_MATCH_CHARS),
        kind,
      });
    }
  });
  return out;
}

/** Longest line the shell patterns read at once (normalizeShell cuts longer ones into windows). */
export const SHELL_WINDOW = 512;

// Quotes and backslashes inside a word removed (what the shell does before running it).
function unquoteWords(line: string): string {
  let s = line;
  for (let pass = 0; pass < 4; pass++) {
    const next = s
      .replace(/(?<=\w)(["'])(\w*)\1/g, '$2')
      .replace(/(["'])(\w+)\1(?=\w)/g, '$2')
      .replace(/(?<=\w|^|[\s;|&(\x60])\\(?=[A-Za-z])/g, '');
    if (next === s) break;
    s = next;
  }
  return s;
}

/**
 * Remote content run by a shell: `curl … | sh` (also `| /bin/bash`, `| env bash`, `| $SHELL`,
 * through `| tee` or `| gunzip`), `wget -O- … | bash`, `bash <(curl …)`, `source <(curl …)`,
 * `. <(wget …)`, `sh -c "$(curl …)"`, `` eval `curl …` ``, `curl -o f … && sh f`, Python
 * `exec(urlopen(…).read())`, `npx`/`pip install` of a URL, PowerShell `iwr … | iex` / `iex (irm …)` /
 * `(New-Object Net.WebClient).DownloadString(…) | iex`. The caller normalises the text first
 * (normalizeShell: continued lines, `c"u"rl`). `kind`: the form matched.
 */
export function remoteCodePipes(text: string): PatternMatch[] {
  return [
    ...matchesOf(
      text,
      new RegExp(String.raw`${FETCH}${PASS}\|\s*${SHELL}`, 'gim'),
      'download piped to a shell',
    ),
    ...matchesOf(
      text,
      new RegExp(
        String.raw`(?:\b(?:sudo\s+)?(?:ba|z|k)?sh|\bsource|(?<![\w./-])\.|\bpython[23]?|\bperl|\bruby|\bnode)\s+(?:-\w+\s+)*<\(\s*(?:curl|wget)\b[^)\n]*\)`,
        'gi',
      ),
      'download run by process substitution',
    ),
    ...matchesOf(
      text,
      new RegExp(
        String.raw`\b(?:(?:ba|z|k)?sh\s+-c|eval|source|python[23]?\s+-c|perl\s+-e|ruby\s+-e|node\s+-e)\s+["']?(?:\$\(\s*(?:curl|wget)\b[^)\n]*\)|\x60\s*(?:curl|wget)\b[^\x60\n]*\x60)`,
        'gi',
      ),
      'download run by command substitution',
    ),
    ...downloadThen(
      text,
      (file) => new RegExp(String.raw`^\s*${RUNNER}\s+["']?${escapeRegExp(file)}(?![\w./-])`, 'i'),
      'download saved, then run',
    ),
    ...matchesOf(
      text,
      /\b(?:exec|eval)\s*\(\s*(?:(?:\w+\.)*urlopen|(?:requests|httpx|session)\.get|__import__\s*\(\s*["'](?:urllib|requests))\b[^\n]{0,160}/g,
      'downloaded code evaluated',
    ),
    ...matchesOf(
      text,
      /\b(?:npx|bunx|uvx|npm\s+(?:i|install|exec|x)|pnpm\s+(?:add|dlx|i|install)|yarn\s+(?:add|dlx)|pip[23]?\s+install|python[23]?\s+-m\s+pip\s+install|uv\s+(?:pip\s+install|tool\s+(?:install|run)|add)|pipx\s+(?:install|run))(?:\s+(?:-y|--yes|-U|--upgrade|--user|-e|--editable|-q|--quiet|--no-deps|--force-reinstall|-g|--global|-p|--package)\b)*\s+["']?(?:git\+)?(?:https?|ftp):\/\/[^\s"'`<>)]+/gi,
      // The URL is the package itself (`npx https://…`, `pip install git+https://…`), not an argument
      // of it (`npx jscodeshift -t https://…`, `pip install torch --index-url https://…`).
      'package installed from a URL',
    ),
    ...matchesOf(
      text,
      /\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|(?:new-object\s+(?:system\.)?net\.webclient\)?\.downloadstring))\b[^\n|;]*\|\s*(?:iex|invoke-expression)\b/gi,
      'PowerShell download piped to Invoke-Expression',
    ),
    ...matchesOf(
      text,
      /\b(?:iex|invoke-expression)\s*\(?\s*(?:\(\s*)?(?:iwr|irm|invoke-webrequest|invoke-restmethod|new-object\s+(?:system\.)?net\.webclient)\b[^\n]*/gi,
      'PowerShell Invoke-Expression of a download',
    ),
  ];
}

/** The URL a matched command line fetches, when it names one. */
export function urlIn(text: string): string | undefined {
  return /\bhttps?:\/\/[^\s"'`<>)|]+/i.exec(text)?.[0];
}

// File endings of programs and installers a download may bring.
const EXECUTABLE_EXT = String.raw`(?:exe|msi|scr|com|bat|cmd|ps1|vbs|dll|dmg|pkg|app|deb|rpm|appimage|apk|jar|bin|run|elf)`;

/**
 * Downloads of executables: a downloader (curl, wget, Invoke-WebRequest, certutil, bitsadmin)
 * fetching a file whose name (in the URL's path, not its host: `https://x.com"` is no .com program)
 * ends in a program or installer extension, or one whose output is made
 * executable on the same line (`curl -o x … && chmod +x x`).
 */
export function executableDownloads(text: string): PatternMatch[] {
  return [
    ...matchesOf(
      text,
      new RegExp(
        String.raw`\b(?:curl|wget|iwr|invoke-webrequest|certutil(?:\.exe)?\s+-urlcache|bitsadmin)\b[^\n]*?https?:\/\/[^\s"'\`<>)/]+\/[^\s"'\`<>)]*\.${EXECUTABLE_EXT}\b(?![./\w-])`,
        'gi',
      ),
      'download of a program or installer',
    ),
    ...downloadThen(
      text,
      (file) =>
        new RegExp(
          String.raw`^\s*chmod\s+(?:[ugoa]*\+x|[0-7]*[157][0-7]{0,2})\s+["']?${escapeRegExp(file)}(?![\w./-])`,
          'i',
        ),
      'download made executable',
      false,
    ),
  ];
}

// Credential stores: SSH keys, cloud and tool credentials, browser profiles, keychains.
const CREDENTIAL_PATH = String.raw`(?:~|\$HOME|\$\{HOME\})\/\.(?:ssh|aws|gnupg|azure)(?![\w.-])|\.ssh\/(?:id_[a-z0-9]+|authorized_keys|known_hosts)|~\/\.aws\/|\.aws\/credentials|~\/\.config\/gcloud|~\/\.azure\/|~\/\.kube\/config|~\/\.docker\/config\.json|~\/\.netrc|~\/\.npmrc|~\/\.pypirc|~\/\.git-credentials|~\/\.gnupg\/|\bLogin Data\b|\blogins\.json\b|\bkey[34]\.db\b|Library\/Keychains|\bsecurity\s+(?:find|dump)-(?:generic|internet)-password|\bsecurity\s+dump-keychain|Google\/Chrome\/(?:Default|Profile)|\.mozilla\/firefox|\bwallet\.dat\b`;

/**
 * Credential locations read: a command or call reading (cat, cp, tar, base64, open, readFile, …)
 * a credential store, or a `.env` file being read or sent. `kind` names the store.
 */
export function credentialReads(text: string): PatternMatch[] {
  // A public key, the SSH client's config and its known hosts are not secrets.
  const secret = (m: PatternMatch): boolean => !/\.pub\b|known_hosts|\.ssh\/config\b/.test(m.text);
  return [
    ...matchesOf(
      text,
      new RegExp(
        String.raw`\b(?:cat|less|head|tail|cp|scp|rsync|tar|zip|base64|xxd|open|read_?text|read_?bytes|readFile(?:Sync)?|fs\.read\w*|Get-Content|type)\b[^\n]{0,80}?(?:${CREDENTIAL_PATH})[^\s"'\x60)]*`,
        'gi',
      ),
      'credential store read',
    ),
    ...matchesOf(
      text,
      new RegExp(
        String.raw`(?:${CREDENTIAL_PATH})[^\n]{0,80}?\|\s*(?:curl|nc|ncat|base64)\b`,
        'gi',
      ),
      'credential store piped out',
    ),
    ...matchesOf(
      text,
      /\bsecurity\s+(?:find|dump)-(?:generic|internet)-password\b[^\n]*|\bsecurity\s+dump-keychain\b[^\n]*/gi,
      'keychain read',
    ),
    ...matchesOf(
      text,
      new RegExp(
        String.raw`\b(?:curl|wget)\b[^\n]*?(?:-d|--data[\w-]*|-F|--form|-T|--upload-file|--post-file)[=\s]+["']?[^\s"']*?@?(?:${CREDENTIAL_PATH})[^\s"'\x60)]*`,
        'gi',
      ),
      'credential store uploaded',
    ),
    // Prose telling the agent to read a store and send it (either order, one sentence, not negated).
    ...matchesOf(
      text,
      new RegExp(
        String.raw`\b(?:read|open|cat|copy|collect|gather|grab|extract|load|include|attach|take|upload|send|post|submit|transmit|forward|exfiltrate|paste)\b[^\n]{0,80}?(?:${CREDENTIAL_PATH})[^\s"'\x60)]*[^\n]{0,120}?\b(?:upload|send|post|submit|transmit|forward|exfiltrate|paste|to\s+https?:\/\/)\w*`,
        'gi',
      ),
      'instruction to send a credential store',
    ).filter((m) => !/\b(?:never|not|don't|avoid|without)\b/i.test(m.text)),
    ...matchesOf(
      text,
      /(?:\bcat\s+[^\n|;]*\.env\b[^\n]*\|\s*(?:curl|nc)\b|\bcurl\b[^\n]*(?:-d|--data(?:-binary)?|-F|--form|-T|--upload-file)[=\s]+["']?@?[^\s"']*\.env\b)/gi,
      '.env file sent',
    ),
  ].filter(secret);
}

/**
 * Network sends: a command or call that sends data out (curl with a body or upload, wget
 * --post-data, nc/ncat to a host, requests.post, fetch with a POST, Invoke-RestMethod -Method Post)
 * or a webhook of a chat service.
 */
export function networkSends(text: string): PatternMatch[] {
  return [
    ...matchesOf(
      text,
      /\bcurl\b[^\n]*?\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)[=\s][^\n]*/gi,
      'curl upload',
    ),
    ...matchesOf(text, /\bwget\b[^\n]*--post-(?:data|file)\b[^\n]*/gi, 'wget upload'),
    ...matchesOf(
      text,
      /\b(?:scp|rsync)\b[^\n]*\s(?:[\w.-]+@)?[\w-]+(?:\.[\w-]+)+:[^\s]*/gi,
      'copy to a remote host',
    ),
    ...matchesOf(
      text,
      /\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*[\w.-]+\.[a-z]{2,}\s+\d{2,5}\b/gi,
      'netcat',
    ),
    ...matchesOf(text, /\b(?:requests|httpx)\.(?:post|put)\s*\(/g, 'HTTP upload'),
    ...matchesOf(text, /\bfetch\s*\([^)]*method\s*:\s*["'](?:POST|PUT)["']/gi, 'HTTP upload'),
    ...matchesOf(
      text,
      /\bInvoke-(?:RestMethod|WebRequest)\b[^\n]*-Method\s+(?:Post|Put)\b[^\n]*/gi,
      'HTTP upload',
    ),
    ...matchesOf(
      text,
      /\bhttps?:\/\/(?:discord(?:app)?\.com\/api\/webhooks|hooks\.slack\.com\/services|api\.telegram\.org\/bot)[^\s"'`<>)]*/gi,
      'chat webhook',
    ),
  ];
}

// Paste sites, anonymous file drops, request bins and tunnels: where stolen data goes and
// second-stage payloads come from (Cisco behavior_chain_detection.yara `$external_sink`).
const PASTE_HOSTS = [
  'pastebin.com',
  'paste.ee',
  'pastes.io',
  'hastebin.com',
  'ghostbin.com',
  'ghostbin.co',
  'rentry.co',
  'rentry.org',
  'dpaste.com',
  'dpaste.org',
  'justpaste.it',
  'controlc.com',
  'privatebin.net',
  'termbin.com',
  'ix.io',
  'sprunge.us',
  'transfer.sh',
  '0x0.st',
  'file.io',
  'temp.sh',
  'webhook.site',
  'requestbin.com',
  'requestbin.net',
  'pipedream.net',
  'ngrok.io',
  'ngrok-free.app',
  'ngrok.app',
  'trycloudflare.com',
  'interact.sh',
  'oast.fun',
  'burpcollaborator.net',
];

const PASTE_RE = new RegExp(
  String.raw`\bhttps?:\/\/(?:[\w-]+\.)*(?:${PASTE_HOSTS.map((h) => h.replace(/\./g, '\\.')).join('|')})(?![\w.-])[^\s"'\`<>)]*`,
  'gi',
);

/** URLs on paste sites, file drops, request bins and public tunnels. */
export function pasteSiteUrls(text: string): PatternMatch[] {
  return matchesOf(text, PASTE_RE, 'paste site or drop');
}

/**
 * URLs whose host is a raw IPv4 address that is not loopback, private (RFC 1918), link-local
 * except the cloud metadata address 169.254.169.254, unspecified, or a documentation range
 * (RFC 5737): a public server named by address, or the metadata endpoint credentials are read from.
 */
export function rawIpUrls(text: string): PatternMatch[] {
  const out: PatternMatch[] = [];
  for (const m of matchesOf(
    text,
    /\b(?:https?|ftp|wss?|tcp):\/\/((?:\d{1,3}\.){3}\d{1,3})(?::\d{1,5})?(?:[/?#][^\s"'`<>)]*)?/gi,
    'raw IP address',
  )) {
    const ip = /\/\/((?:\d{1,3}\.){3}\d{1,3})/.exec(m.text)![1]!;
    if (isPublicOrMetadata(ip))
      out.push(ip === '169.254.169.254' ? { ...m, kind: 'cloud metadata address' } : m);
  }
  return out;
}

function isPublicOrMetadata(ip: string): boolean {
  const o = ip.split('.').map(Number);
  if (o.some((x) => x > 255)) return false;
  const [a, b, c] = o as [number, number, number, number];
  if (ip === '169.254.169.254') return true;
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  if (a === 192 && b === 0 && c === 2) return false;
  if (a === 198 && b === 51 && c === 100) return false;
  if (a === 203 && b === 0 && c === 113) return false;
  return true;
}

/**
 * Decoded content executed: `base64 -d | sh`, `eval(atob(…))`, `exec(base64.b64decode(…))`,
 * `eval(Buffer.from(…, 'base64'))`, PowerShell `-EncodedCommand <base64>`.
 */
export function decodeExec(text: string): PatternMatch[] {
  return [
    ...matchesOf(
      text,
      new RegExp(String.raw`\bbase64\s+(?:-d|--decode|-D)\b[^\n|;]{0,64}\|\s*${SHELL}`, 'gim'),
      'base64 decoded into a shell',
    ),
    ...matchesOf(
      text,
      /\b(?:eval|exec|Function)\s*\(\s*(?:atob|base64\.b64decode|b64decode|Buffer\.from)\s*\([^\n]{0,200}/g,
      'decoded text evaluated',
    ),
    ...matchesOf(
      text,
      /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*?\s-(?:e|ec|enc|encodedcommand)\s+["']?[A-Za-z0-9+/]{40,}={0,2}/gi,
      'PowerShell encoded command',
    ),
  ];
}

/** Shortest single run of base64 characters reported as a blob: 200 (150 bytes decoded). */
const MIN_BASE64_RUN = 200;
/** Shortest run of hex digits (or `\xNN` escapes) reported as a blob: 256 characters (128 bytes). */
const MIN_HEX_RUN = 256;
const BASE64_RUN_RE = new RegExp(`[A-Za-z0-9+/]{${MIN_BASE64_RUN},}={0,2}`, 'g');
const HEX_RUN_RE = new RegExp(
  `(?:[0-9a-fA-F]{${MIN_HEX_RUN},}|(?:\\\\x[0-9a-fA-F]{2}){${MIN_HEX_RUN / 2},})`,
  'g',
);

/**
 * Long encoded blobs: a run of at least MIN_BASE64_RUN base64 characters holding upper case, lower
 * case and digits (so no word, path or hash), a run of at least MIN_HEX_RUN hex digits or `\xNN`
 * escapes, or five or more consecutive lines of 60+ base64 characters each (a wrapped blob).
 * Inline images (`data:image/…;base64,`) are not blobs.
 */
export function encodedBlobs(text: string): PatternMatch[] {
  const out: PatternMatch[] = [];
  for (const m of text.matchAll(BASE64_RUN_RE)) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    if (/data:image\/[\w.+-]+;base64,\s*$/i.test(before)) continue;
    const s = m[0];
    if (!/[A-Z]/.test(s) || !/[a-z]/.test(s) || !/\d/.test(s)) continue;
    out.push({
      line: lineAt(text, m.index),
      text: excerpt(s),
      kind: `base64 run of ${s.length} characters`,
    });
  }
  for (const m of text.matchAll(HEX_RUN_RE))
    out.push({
      line: lineAt(text, m.index),
      text: excerpt(m[0]),
      kind: `hex run of ${m[0].length} characters`,
    });
  const lines = text.split('\n');
  let start = -1;
  for (let i = 0; i <= lines.length; i++) {
    const l = lines[i]?.trim() ?? '';
    const blobLine = /^[A-Za-z0-9+/]{60,}={0,2}$/.test(l) && /\d/.test(l) && /[A-Z]/.test(l);
    if (blobLine && start < 0) start = i;
    if (!blobLine && start >= 0) {
      if (i - start >= 5 && !/-----BEGIN (?:CERTIFICATE|PUBLIC KEY)/.test(lines[start - 1] ?? ''))
        out.push({
          line: start + 1,
          text: excerpt(lines[start]!.trim()),
          kind: `wrapped base64 of ${i - start} lines`,
        });
      start = -1;
    }
  }
  return out;
}

function excerpt(s: string): string {
  return s.length > 48 ? `${s.slice(0, 24)}…${s.slice(-12)}` : s;
}

/**
 * Invisible characters that are not part of an emoji: zero-width characters, bidi controls, tag
 * characters and variation selectors, except a zero-width joiner between two pictographs, a
 * variation selector after one, and the tag sequence of a subdivision flag. `kind` lists the code
 * points (U+XXXX).
 */
export function hiddenCharacters(text: string): PatternMatch[] {
  const cleaned = text
    .replace(
      /(\p{Extended_Pictographic}\p{Emoji_Modifier}?[\uFE0E\uFE0F]?)\u200D(?=\p{Extended_Pictographic})/gu,
      '$1',
    )
    .replace(/(\p{Extended_Pictographic}|[#*0-9\u00A9\u00AE\u2122])[\uFE0E\uFE0F]/gu, '$1')
    .replace(/\u{1F3F4}[\u{E0061}-\u{E007A}]{2,6}\u{E007F}/gu, '\u{1F3F4}');
  const out: PatternMatch[] = [];
  const byLine = new Map<number, Set<string>>();
  for (const m of cleaned.matchAll(HIDDEN_G)) {
    const line = lineAt(cleaned, m.index);
    let set = byLine.get(line);
    if (!set) byLine.set(line, (set = new Set()));
    set.add(`U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  }
  for (const [line, set] of byLine) out.push({ line, text: '', kind: [...set].join(', ') });
  return out;
}

// The hidden set of src/text/flags.ts (zero-width, bidi, tags, variation selectors, fillers).
const HIDDEN_G =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;
