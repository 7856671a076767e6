/** fetch's Response, with json() typed loosely as tests read it. */
export type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> };
