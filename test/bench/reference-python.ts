// Runs the reference's own step evaluator (evaluate_trajectories.py, main()) for bench:eval, with
// no reference code in this repo: the script is read at bench time from a local checkout or the
// git mirror of the reference into a temp folder. The reference needs sentence-transformers only
// to embed texts missing from its `.emb_cache.json`; the bench fills that cache with the same
// vectors our side uses, and replaces the model class by one that refuses to embed, so a cache
// miss fails loudly instead of timing something else.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const defaultMirror = '/work/.mirror/EtaYang10th+Open-M3-Bench/repo';

/** Where the reference script comes from: M3_REFERENCE_EVALUATOR (a file) or the git mirror M3_REFERENCE_GIT. */
export function findReferenceEvaluator(): { file: string } | { skip: string } {
  const python = spawnSync('python3', ['-c', 'import numpy, scipy'], { encoding: 'utf8' });
  if (python.error || python.status !== 0) return { skip: `python3 with numpy and scipy is not available (${python.error?.message ?? python.stderr.trim()})` };
  const given = process.env.M3_REFERENCE_EVALUATOR;
  if (given) return existsSync(given) ? { file: given } : { skip: `M3_REFERENCE_EVALUATOR=${given} does not exist` };
  const gitDir = process.env.M3_REFERENCE_GIT ?? defaultMirror;
  const shown = spawnSync('git', ['-C', gitDir, 'show', 'HEAD:evaluate_trajectories.py'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (shown.status !== 0) {
    return {
      skip: `no reference evaluator: set M3_REFERENCE_EVALUATOR to evaluate_trajectories.py, or M3_REFERENCE_GIT to a git copy of the reference (tried ${gitDir})`,
    };
  }
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'm3-reference-')), 'evaluate_trajectories.py');
  writeFileSync(file, shown.stdout);
  return { file };
}

// Loads the script as a module, swaps the model class, and times main() alone (interpreter start
// and the numpy/scipy imports are outside the timer; the process wall time is reported beside it).
const driver = `
import importlib.util, json, sys, time
script, gt, pred, out = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("evaluate_trajectories", script)
module = importlib.util.module_from_spec(spec)
sys.modules["evaluate_trajectories"] = module
spec.loader.exec_module(module)
class CacheOnly:
    def __init__(self, name):
        self.name = name
    def encode(self, texts, **kwargs):
        raise RuntimeError(f"{len(texts)} text(s) missing from the embedding cache; the bench must fill it")
module.SentenceTransformer = CacheOnly
started = time.perf_counter()
code = module.main(["--gt", gt, "--pred", pred, "--output-dir", out])
seconds = time.perf_counter() - started
with open(out + "/results_eval.json", encoding="utf-8") as f:
    aggregate = json.load(f)["aggregate"]
print(json.dumps({"seconds": seconds, "code": code, "recall": aggregate.get("recall"), "precision": aggregate.get("precision")}))
`;

export interface ReferenceTiming {
  /** main() alone. */
  seconds: number;
  /** The whole python3 process. */
  processSeconds: number;
  recall: number;
  precision: number;
}

/** Runs the reference's main() on the files; `outputDir` must already hold the filled `.emb_cache.json`. */
export function runReferenceEvaluator(script: string, gtFile: string, predFile: string, outputDir: string): ReferenceTiming {
  const started = performance.now();
  const result = spawnSync('python3', ['-c', driver, script, gtFile, predFile, outputDir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const processSeconds = (performance.now() - started) / 1000;
  const last = result.stdout.trim().split('\n').at(-1) ?? '';
  if (result.status !== 0 || !last.startsWith('{'))
    throw new Error(`the reference evaluator failed (exit ${result.status}): ${result.stderr.trim().slice(-2000)}`);
  const parsed = JSON.parse(last) as { seconds: number; recall: number; precision: number };
  return { seconds: parsed.seconds, processSeconds, recall: parsed.recall, precision: parsed.precision };
}
