// File arguments of a call that carries a task context (call-context.ts) resolve inside that
// task's workspace, so concurrent tasks never read or overwrite each other's files and the
// paths the ground truth uses still work. The mapping is deterministic and the same for reading
// and writing (a file a tool wrote under a given name is found again under that name):
//   - a path (relative to the repository root, or absolute) already inside the workspace: itself;
//   - relative: one leading "media/" or "images/" segment is dropped and the rest is taken below
//     the workspace ("./media/x.pptx" → <workspace>/x.pptx, "images/0001.png" → <workspace>/0001.png,
//     "./food.xlsx" → <workspace>/food.xlsx), because the reference ran from the repository root
//     with media/ as its working folder and the task image copied there by name;
//   - absolute under media/: the part below media/, under the workspace;
//   - any other absolute path: the whole path below the workspace ("/tmp/x.xlsx" →
//     <workspace>/tmp/x.xlsx).
// A file to read falls back to the literal path (inside the allowed roots) when the mapped file
// does not exist: task images and shared assets stay readable. Every mapping that changes a path
// is logged once on stderr (`[paths] task <id>: "<given>" -> <file>`), which the host keeps in the
// run's <server>.stderr.log, and listed in that call's result under `_meta["m3bench/paths"]`
// (tool-result.ts `guarded()` collects them per call). The arguments themselves are never
// rewritten: what the model sent is what is recorded and compared with the ground truth.
// A context marked `workspaceOnly` (the demo's sessions, whose siblings' files sit in the same
// media folder) has no literal fallback: a path that names a place inside the allowed roots but
// outside the workspace is refused, every other path is mapped into the workspace as above.
// Every mapped path is checked against the task's own workspace after symlinks are followed
// (not only against the allowed roots), so a link planted in one workspace cannot reach another.
// Calls without a context keep each server's own resolution.
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MappedPathMeta } from '../../src/core/tool-result-contract.js';
import { allowedRoots, PathNotAllowedError, resolveAllowedPath } from './allowed-roots.js';
import { callContextOf, workspaceOf } from './call-context.js';

type CallExtra = { _meta?: unknown } | undefined;

/** A file:// URI as a path; "file://./media/x" (relative, not a valid URI) keeps its relative part. */
export function stripFileUri(input: string): string {
  if (!input.startsWith('file://')) return input;
  try {
    return fileURLToPath(input);
  } catch {
    return input.slice('file://'.length);
  }
}

function isInside(child: string, root: string): boolean {
  const relative = path.relative(root, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function contained(target: string, workspace: string, input: string): string {
  if (!isInside(target, workspace)) throw new PathNotAllowedError(`path "${input}" leaves the task's workspace`);
  return target;
}

/**
 * Where `input` lands inside `workspace` (see the header); pure, no file system access.
 * @internal Exported for its tests.
 */
export function mapIntoWorkspace(input: string, workspace: string, mediaRoot: string): string {
  const raw = stripFileUri(input.trim());
  if (raw === '') throw new PathNotAllowedError('the path is empty');
  if (path.isAbsolute(raw)) {
    const absolute = path.resolve(raw);
    if (isInside(absolute, workspace)) return absolute;
    if (isInside(absolute, mediaRoot)) return contained(path.join(workspace, path.relative(mediaRoot, absolute)), workspace, input);
    return contained(path.join(workspace, path.relative(path.parse(absolute).root, absolute)), workspace, input);
  }
  const fromRepoRoot = path.resolve(path.dirname(mediaRoot), raw);
  if (isInside(fromRepoRoot, workspace)) return fromRepoRoot;
  const segments = path
    .normalize(raw)
    .split(/[\\/]/)
    .filter((segment) => segment !== '' && segment !== '.');
  const rest = (segments[0] === 'media' || segments[0] === 'images') && segments.length > 1 ? segments.slice(1) : segments;
  return contained(path.join(workspace, ...rest), workspace, input);
}

const logged = new Set<string>();

function logMapping(taskId: string, given: string, file: string): void {
  const key = `${taskId}\u0000${given}\u0000${file}`;
  if (logged.has(key)) return;
  if (logged.size > 5000) logged.clear();
  logged.add(key);
  process.stderr.write(`[paths] task ${taskId}: ${JSON.stringify(given)} -> ${file}\n`);
}

// The mappings of the tool call running in this async context (one list per guarded() call).
const callMappings = new AsyncLocalStorage<MappedPathMeta[]>();

/** Runs one tool call and returns what it answered with the file arguments it mapped. */
export async function collectPathMappings<T>(body: () => Promise<T>): Promise<{ value: T; mappings: MappedPathMeta[] }> {
  const mappings: MappedPathMeta[] = [];
  const value = await callMappings.run(mappings, body);
  return { value, mappings };
}

interface MappedPath {
  workspace: string;
  taskId: string;
  target: string;
  /** The input taken literally (relative to the repository root). */
  literal: string;
  /** The context allows the workspace alone: no literal fallback. */
  workspaceOnly: boolean;
}

function outsideWorkspace(input: string, workspace: string, mediaRoot: string): PathNotAllowedError {
  // The workspace as the repository-relative path tools are given, never an absolute machine path.
  const shown = `./${path.relative(path.dirname(mediaRoot), workspace).split(path.sep).join('/')}/`;
  return new PathNotAllowedError(`path "${input}" is outside this session's workspace; use this session's own files (${shown}) or a bare file name`);
}

/** A path inside an allowed root counts only inside the workspace; anything else is mapped into it. */
function confinedTarget(input: string, workspace: string, mediaRoot: string): string {
  let literal: string | undefined;
  try {
    literal = resolveAllowedPath(path.resolve(path.dirname(mediaRoot), stripFileUri(input.trim())));
  } catch (error) {
    if (!(error instanceof PathNotAllowedError)) throw error;
  }
  if (literal !== undefined && !isInside(literal, workspace)) throw outsideWorkspace(input, workspace, mediaRoot);
  const target = literal ?? resolveAllowedPath(mapIntoWorkspace(input, workspace, mediaRoot));
  // Symlinks are followed by resolveAllowedPath: the file really used must still be in the workspace.
  if (!isInside(target, workspace)) throw outsideWorkspace(input, workspace, mediaRoot);
  return target;
}

function mapForCall(input: string, extra: CallExtra): MappedPath | undefined {
  const context = callContextOf(extra);
  if (!context) return undefined;
  const workspace = workspaceOf(extra);
  const configured = allowedRoots()[0] ?? path.resolve('media');
  const mediaRoot = existsSync(configured) ? resolveAllowedPath(configured) : configured;
  const workspaceOnly = context.workspaceOnly === true;
  const target = workspaceOnly ? confinedTarget(input, workspace, mediaRoot) : resolveAllowedPath(mapIntoWorkspace(input, workspace, mediaRoot));
  // The mapping is inside the workspace by construction; after symlinks it must still be, or a
  // planted `peer -> ../<other task>` link would let one task write into another's folder.
  if (!isInside(target, workspace)) throw new PathNotAllowedError(`path "${input}" leaves the task's workspace through a symbolic link`);
  return { workspace, taskId: context.taskId, target, literal: path.resolve(path.dirname(configured), stripFileUri(input.trim())), workspaceOnly };
}

function used(mapped: MappedPath, input: string): string {
  if (mapped.target === mapped.literal) return mapped.target;
  logMapping(mapped.taskId, input, mapped.target);
  const file = path.relative(resolveAllowedPath(mapped.workspace), mapped.target).split(path.sep).join('/');
  const current = callMappings.getStore();
  if (current && !current.some((entry) => entry.given === input && entry.file === file)) current.push({ given: input, file });
  return mapped.target;
}

/**
 * A file the tool will write: inside the task's workspace when the call has a context, else
 * whatever `withoutContext` (the server's own rule) makes of it.
 */
export function resolveOutputArgument(input: string, extra: CallExtra, withoutContext: (input: string) => string): string {
  const mapped = mapForCall(input, extra);
  return mapped ? used(mapped, input) : withoutContext(input);
}

/**
 * A file the tool will read: the mapped file when the call has a context and it exists, else
 * the literal path through `withoutContext` (default: confined to the allowed roots).
 */
export function resolveInputArgument(input: string, extra: CallExtra, withoutContext: (input: string) => string = resolveAllowedPath): string {
  let mapped: MappedPath | undefined;
  try {
    mapped = mapForCall(input, extra);
  } catch (error) {
    // A workspace this server may not use (outside its allowed roots) has no file to read: the
    // literal path, confined as without a context, is what the caller can mean. A workspace-only
    // call has no such fallback.
    if (!(error instanceof PathNotAllowedError) || callContextOf(extra)?.workspaceOnly) throw error;
  }
  if (mapped?.workspaceOnly) return used(mapped, input);
  return mapped && existsSync(mapped.target) ? used(mapped, input) : withoutContext(input);
}

/**
 * The folder a tool writes an output to when the caller named none: the task's workspace when
 * the call has a context (never a shared folder next to a shared input), else `besideDir`.
 */
export function defaultOutputDir(extra: CallExtra, besideDir: string): string {
  return callContextOf(extra) ? workspaceOf(extra) : resolveAllowedPath(besideDir);
}
