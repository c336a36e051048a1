// Test services for the service's own integration tests, each closed when its test ends.
import { afterEach } from "vitest";
import {
  createTestService,
  type TestService,
  type TestServiceOptions,
} from "./index.ts";

/** A `start(options)` that opens a fresh service per call; every one is closed after each test. */
export function freshServices(defaults: TestServiceOptions = {}) {
  const open: TestService[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((service) => service.close()));
  });
  return async (options: TestServiceOptions = {}): Promise<TestService> => {
    const service = await createTestService({ ...defaults, ...options });
    open.push(service);
    return service;
  };
}
