// The mock server under test, alone in its process so /proc/<pid>/stat holds only its CPU time:
// createMockHandler from dist/ on DATA_FILE, behind the Host check and listen() that `serve-mocks`
// uses on loopback. Prints its URL like bare-server.js; SIGTERM saves pending logs and exits.
import { openMockStore } from '../dist/mocks/store/open-store.js';
import { createMockHandler } from '../dist/mocks/app.js';
import { guardHost } from '../dist/server/host-check.js';
import { listen } from '../dist/server/listen.js';

const store = await openMockStore(process.env.DATA_FILE);
const handler = guardHost(createMockHandler({ store }), [], (message) => ({ success: false, message }));
const running = await listen(handler, 0, '127.0.0.1');
console.log(`mock server on ${running.url}`);
process.on('SIGTERM', async () => {
  await running.close();
  await store.close();
  process.exit(0);
});
