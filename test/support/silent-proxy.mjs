// A loopback TCP proxy that can fall silent, for tests and the load bench (issue 25): it forwards
// 127.0.0.1:<listen> to the upstream port given as its first argument, prints `listening PORT` on
// stdout, and obeys lines on stdin: `silence` — every connection, open or new, stays open but
// nothing is forwarded either way (a frozen database, a partition behind a proxy: the kernel still
// acknowledges, so TCP keepalives see nothing wrong); `resume` — forwarding again for new
// connections, and the connections that went silent are closed (their protocol state is lost).
// A separate process on purpose: a client blocked in a synchronous call must not stop the proxy.
import net from 'node:net';
import readline from 'node:readline';

const upstream = Number(process.argv[2]);
let silent = false;
const silenced = new Set();
const open = new Set();

const server = net.createServer((client) => {
  const target = net.connect(upstream, '127.0.0.1');
  const pair = { client, target };
  open.add(pair);
  if (silent) silenced.add(pair);
  const forward = (from, to) => {
    from.on('data', (chunk) => {
      if (!silent && !silenced.has(pair)) to.write(chunk);
    });
    from.on('error', () => to.destroy());
    from.on('close', () => {
      to.destroy();
      open.delete(pair);
      silenced.delete(pair);
    });
  };
  forward(client, target);
  forward(target, client);
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = line.trim();
  if (cmd === 'silence') {
    silent = true;
    for (const pair of open) silenced.add(pair);
  } else if (cmd === 'resume') {
    silent = false;
    for (const pair of silenced) {
      pair.client.destroy();
      pair.target.destroy();
    }
    silenced.clear();
  }
  process.stdout.write(`${cmd} done\n`);
});
process.stdin.on('end', () => process.exit(0));
