/**
 * Hook points (seed 000): experiments change behaviour by registering functions, not by editing the
 * pipeline. A hook that throws is reported in the trace and the turn goes on without its change.
 * TODO(core-policy helper): implement runner + registry.
 */
export type { HookPoint } from './trace';
