export default async function globalTeardown(): Promise<void> {
  await globalThis.__EMBEDDED_MONGO__?.stop();
}
