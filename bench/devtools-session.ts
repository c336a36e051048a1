// A DevTools protocol session with a Node process started with `--inspect=127.0.0.1:<port>`,
// over Node's own WebSocket: enough to ask its HeapProfiler and Runtime for something and wait
// for the answer. Every call still waiting fails when the socket closes or errs, so a process
// that dies mid-call fails the caller instead of leaving it waiting.

interface CdpMessage {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

export interface DevtoolsSession {
  post<T>(method: string, params?: object): Promise<T>;
  close(): void;
}

export async function openDevtoolsSession(
  port: number,
): Promise<DevtoolsSession> {
  const response = await fetch(`http://127.0.0.1:${port}/json/list`);
  const [target] = (await response.json()) as {
    webSocketDebuggerUrl: string;
  }[];
  if (!target) throw new Error(`no inspector target on port ${port}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  try {
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", reject, { once: true });
    });
  } catch (error) {
    socket.close();
    throw error;
  }
  let last = 0;
  const waiting = new Map<
    number,
    { answer(message: CdpMessage): void; fail(error: Error): void }
  >();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as CdpMessage;
    if (message.id !== undefined) waiting.get(message.id)?.answer(message);
  });
  const failAll = () => {
    for (const [id, call] of waiting) {
      waiting.delete(id);
      call.fail(new Error(`the inspector on port ${port} went away`));
    }
  };
  socket.addEventListener("close", failAll);
  socket.addEventListener("error", failAll);
  return {
    post<T>(method: string, params: object = {}): Promise<T> {
      const id = ++last;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, {
          answer(message) {
            waiting.delete(id);
            if (message.error)
              reject(new Error(`${method}: ${message.error.message}`));
            else resolve(message.result as T);
          },
          fail: reject,
        });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => socket.close(),
  };
}
