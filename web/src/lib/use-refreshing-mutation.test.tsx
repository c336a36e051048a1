// A write stays pending until what it refreshes has been read again: a page's button is busy
// until the page shows the write's result, never the old list for a moment after "done".
import { describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import { useQuery } from "@tanstack/react-query";
import { act, waitFor } from "@testing-library/react";
import { renderMutation } from "../testing/render-mutation.tsx";
import { server } from "../testing/server.ts";
import { useRefreshingMutation } from "./use-refreshing-mutation.ts";
import type { WriteCallbacks } from "./write-callbacks.ts";

const PATH = "/api/test/counters";
const QUERY_KEY = ["test", "counters"];

/** The counters' list, its second read held back until `release` is called. */
function serveHeldRefetch() {
  let reads = 0;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  server.use(
    http.get(PATH, async () => {
      reads += 1;
      if (reads > 1) await held;
      return HttpResponse.json({ count: reads });
    }),
  );
  return { release, reads: () => reads };
}

async function readCounters() {
  const response = await fetch(PATH);
  return (await response.json()) as { count: number };
}

/** A page: the list on show (an active observer) and a write that refreshes it. */
function useCountersPage(
  refresh: Parameters<typeof useRefreshingMutation>[1],
  callbacks: WriteCallbacks<string, void> = {},
  write: () => Promise<string> = () => Promise.resolve("written"),
) {
  const counters = useQuery({ queryKey: QUERY_KEY, queryFn: readCounters });
  const writing = useRefreshingMutation(write, refresh, callbacks);
  return { counters, write: writing };
}

describe("a refreshing write", () => {
  it("is pending until the invalidated query on show has been read again", async () => {
    const list = serveHeldRefetch();
    const { result } = renderMutation(() => useCountersPage(QUERY_KEY));
    await waitFor(() =>
      expect(result.current.counters.data).toEqual({ count: 1 }),
    );

    let done = false;
    act(() => {
      void result.current.write.mutateAsync().then(() => (done = true));
    });
    await waitFor(() => expect(list.reads()).toBe(2));
    expect(result.current.write.isPending).toBe(true);
    expect(done).toBe(false);

    act(() => list.release());
    await waitFor(() => expect(result.current.write.isSuccess).toBe(true));
    expect(done).toBe(true);
    expect(result.current.counters.data).toEqual({ count: 2 });
  });

  it("is done at once when its refresh only starts the read again", async () => {
    const list = serveHeldRefetch();
    const { result } = renderMutation(() =>
      useCountersPage((_answer, queryClient) => {
        void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
      }),
    );
    await waitFor(() =>
      expect(result.current.counters.data).toEqual({ count: 1 }),
    );

    await act(() => result.current.write.mutateAsync());
    await waitFor(() => expect(result.current.write.isSuccess).toBe(true));
    // Done while the list's second read is still held back.
    expect(list.reads()).toBe(2);
    expect(result.current.counters.isFetching).toBe(true);
    expect(result.current.counters.data).toEqual({ count: 1 });

    act(() => list.release());
    await waitFor(() =>
      expect(result.current.counters.data).toEqual({ count: 2 }),
    );
  });

  it("tells the screen of its success before it reads the list again", async () => {
    serveHeldRefetch().release();
    const events: string[] = [];
    const { queryClient, result } = renderMutation(() =>
      useCountersPage(QUERY_KEY, {
        onSuccess: (answer) => events.push(`screen heard ${answer}`),
      }),
    );
    await waitFor(() =>
      expect(result.current.counters.data).toEqual({ count: 1 }),
    );
    // The cache says when a read starts, at once: a server handler would hear of it a tick late.
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "fetch")
        events.push("list read again");
    });

    await act(() => result.current.write.mutateAsync());

    expect(events).toEqual(["screen heard written", "list read again"]);
  });

  it("hands a failed write's error to the screen and reads nothing again", async () => {
    const list = serveHeldRefetch();
    const failures: string[] = [];
    const { result } = renderMutation(() =>
      useCountersPage(
        QUERY_KEY,
        { onError: (error) => failures.push(error.message) },
        () => Promise.reject(new Error("refused")),
      ),
    );
    await waitFor(() =>
      expect(result.current.counters.data).toEqual({ count: 1 }),
    );

    await act(() =>
      expect(result.current.write.mutateAsync()).rejects.toThrow("refused"),
    );

    expect(failures).toEqual(["refused"]);
    expect(list.reads()).toBe(1);
  });
});
