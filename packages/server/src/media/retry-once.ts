/**
 * Runs `fn`, and once more if it fails: libvips can fail transiently (a full temp disk, memory
 * pressure with many uploads at once). The second failure is the one reported.
 */
export async function retryOnce<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch {
    return fn();
  }
}
