/**
 * DOM helpers of the explorer page: `h` builds an element whose children are elements or strings,
 * and strings always become text nodes. No helper here accepts HTML: skill text can never become
 * markup.
 */

/** A child of `h`: an element, a text (inserted as a text node), or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Creates `<tag>` with the given class, attributes and children (strings as text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; attrs?: Record<string, string>; title?: string } = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class !== undefined) el.className = props.class;
  if (props.title !== undefined) el.title = props.title;
  for (const [k, v] of Object.entries(props.attrs ?? {})) el.setAttribute(k, v);
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(
      typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c,
    );
  }
  return el;
}

/** A link to a path on this server (the href is built here, never taken from skill text). */
export function link(href: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { attrs: { href } }, ...children);
}

// Where the page keeps the server's token: this tab's session storage, which belongs to this
// origin (scheme, host and port) alone. A cookie would go to every port of the host.
const TOKEN_KEY = 'skilldex_token';

/**
 * The server's token, taken once from the URL `skilldex serve` printed (`#token=…`, or `?token=…`
 * from older links) into session storage, and removed from the address bar and the history entry.
 * Undefined when the server was started without one.
 */
export function takeToken(): string | undefined {
  const url = new URL(location.href);
  const fragment = new URLSearchParams(url.hash.slice(1));
  const given = fragment.get('token') ?? url.searchParams.get('token');
  if (given !== null) {
    sessionStorage.setItem(TOKEN_KEY, given);
    fragment.delete('token');
    url.searchParams.delete('token');
    const hash = fragment.toString();
    history.replaceState(history.state, '', url.pathname + url.search + (hash ? `#${hash}` : ''));
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

const token = takeToken();

/** Fetches a JSON API route (with the bearer token, when there is one); an `{ error }` answer becomes a thrown ApiError. */
export async function api<T>(route: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(route, {
    headers: {
      accept: 'application/json',
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(signal ? { signal } : {}),
  });
  const body = (await res.json()) as unknown;
  if (!res.ok) {
    const e =
      (
        body as {
          error?: {
            code?: string;
            message?: string;
            hint?: string;
            details?: Record<string, unknown>;
          };
        }
      ).error ?? {};
    throw new ApiError(
      res.status,
      e.code ?? 'HTTP_' + res.status,
      e.message ?? res.statusText,
      e.hint ?? '',
      e.details ?? {},
    );
  }
  return body as T;
}

/** An error answer of the API. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint: string,
    /** The error's details (`did_you_mean` of SKILL_NOT_FOUND, the field or option named…). */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

/** A box showing an error (code, message, hint) as text. */
export function errorBox(err: unknown): HTMLElement {
  if (err instanceof ApiError) {
    return h(
      'div',
      { class: 'error', attrs: { role: 'alert' } },
      h('strong', {}, err.code),
      ': ',
      err.message,
      err.hint ? h('div', { class: 'hint' }, err.hint) : null,
    );
  }
  return h(
    'div',
    { class: 'error', attrs: { role: 'alert' } },
    String(err instanceof Error ? err.message : err),
  );
}

/** Formats a score or points value with three decimals. */
export function fmt(n: number): string {
  return n.toFixed(3);
}
