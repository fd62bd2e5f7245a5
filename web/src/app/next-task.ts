/**
 * Gives the main thread back to the browser until its next task: the start of a page is cut into
 * tasks short enough that a phone can still answer a tap (and paint) in between.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
