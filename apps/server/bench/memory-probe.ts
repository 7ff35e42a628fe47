// Loaded with `--import` into a server process that the load test starts: answers the test's
// 'memory' messages (IPC) with the process's memory, after a full garbage collection when asked and
// when the process runs with --expose-gc, so that a heap that keeps growing is told apart from
// garbage not yet collected.
type MemoryRequest = { type: 'memory'; collect?: boolean };

process.on('message', (message: MemoryRequest) => {
  if (message?.type !== 'memory' || !process.send) return;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (message.collect && gc) gc();
  process.send({ type: 'memory', memory: process.memoryUsage() });
});
// The IPC channel must not keep the server alive once it has closed everything else.
process.channel?.unref();
