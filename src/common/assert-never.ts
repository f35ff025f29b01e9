/**
 * The default branch of a switch over a closed union: it compiles only when every member is handled, so a
 * member added later fails the build where it is not handled yet (rather than falling into another branch).
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
