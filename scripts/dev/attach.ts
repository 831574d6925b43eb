/**
 * netlify dev's framework command in `npm run dev`: Astro's dev server is already running
 * (scripts/dev.ts starts it first), so this only stands for it, and ends when it stops answering
 * on its port, which ends netlify dev too. Usage: node scripts/dev/attach.ts <astro port>
 */
import { connect } from 'node:net';

const port = Number(process.argv[2]);
if (!Number.isInteger(port)) throw new Error('usage: node scripts/dev/attach.ts <astro port>');

const answers = () =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const timer = setInterval(() => {
  void answers().then((up) => {
    if (!up) {
      clearInterval(timer);
      process.exit(0);
    }
  });
}, 1000);
