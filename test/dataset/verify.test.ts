// verifyDataset in-process: the STATS.md counts from the real shared files as data, and what
// breaks the check after a real pull (from the hub fake): a changed file, a file that is not an
// image, a damaged lock file.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetError, pullDataset, verifyDataset } from '../../src/dataset/index.js';
import { sharedDataDir } from '../support/shared-assets.js';
import { commit, datasetFiles, missingDataMessage, repo, tempLayout } from './fixtures.js';
import { hubFakes } from './hub-fake.js';

const data = sharedDataDir();
const files = datasetFiles();
if ((!data || !files) && process.env.CI) throw new Error(missingDataMessage);
const startHubFake = hubFakes();

describe.skipIf(!data || !files)(`verifyDataset${data && files ? '' : ` (skipped: ${missingDataMessage})`}`, () => {
  it('counts the shared copy of the original files as STATS.md states', async () => {
    const layout = tempLayout();
    const options = {
      tasksFile: path.join(data ?? '', 'tasks_fuzzy.json'),
      gtFile: path.join(data ?? '', 'test_mcp_GT.json'),
      imageDir: layout.imageDir,
      lockFile: layout.lockFile,
    };
    const report = await verifyDataset(options);
    expect(report.counts.gt).toMatchObject({
      entries: 213,
      uniqueIds: 208,
      types: 30,
      typesAllEntries: 31,
      steps: 648,
      stepsAllEntries: 664,
      parallelSteps: 284,
      parallelStepsAllEntries: 289,
      tasksWithParallelStep: 182,
      calls: 1355,
      callsAllEntries: 1387,
      servers: 27,
      tools: 70,
    });
    expect(report.counts.gt.duplicates).toEqual([
      { id: '00070008', count: 2, identical: false },
      { id: '00230000', count: 2, identical: true },
      { id: '00230005', count: 2, identical: true },
      { id: '00230006', count: 2, identical: true },
      { id: '00230008', count: 2, identical: true },
    ]);
    expect(report.counts.overlap).toMatchObject({
      fuzzyTasks: 141,
      fuzzyUniqueIds: 141,
      fuzzyTypes: 18,
      fuzzyWithGt: 137,
      scoredCalls: 852,
      scoredServers: 19,
      fuzzyWithoutGt: ['00010001', '00020006', '00020007', '00070009'],
      gtWithoutFuzzy: 71,
      typeDiffers: 19,
      imageDiffers: ['00010006'],
    });
    expect(report.counts.images).toMatchObject({
      tasksWithImage: 208,
      png: 208,
      plainPaths: 181,
      dotPaths: 26,
      otherPaths: [{ id: '00040002', image: 'images/000400002.png' }],
      distinctNames: 206,
    });
    expect(report.counts.images.nameDiffersFromId.map((entry) => entry.id).sort()).toEqual([
      '00040002',
      '00110004',
      '00110005',
      '00220000',
      '00220001',
      '00220002',
      '00220003',
      '00220004',
      '00220005',
      '00220006',
    ]);
    expect(report.counts.oddities).toEqual({
      extraFields: ['00070008', '00080007', '00090006'],
      callsWithoutArguments: ['00170000'],
      recordedResults: {
        calls: 42,
        tasks: [
          { id: '00080004', calls: 29 },
          { id: '00080007', calls: 12 },
          { id: '00090000', calls: 1 },
        ],
      },
      oddStepNumbers: ['00080001', '00080002', '00160000'],
      repeatedCalls: { cases: 20, tasks: 15 },
    });
    expect(report.images.checks).toHaveLength(208);
    expect(report.images.checks.every((check) => check.status === 'missing')).toBe(true);
    expect(report).toMatchObject({ passed: false, failures: ['208 of 208 image(s) missing'], lock: { present: false, checks: [] } });
    expect((await verifyDataset({ ...options, allowMissingImages: true })).passed).toBe(true);
  });

  it('after a pull, fails on a changed file (against the lock) and on a file that is not an image; a broken lock file is a clear error', async () => {
    const fake = await startHubFake({ repo, commit, files: files ?? [] });
    const layout = tempLayout();
    await pullDataset({ repo, revision: 'main', endpoint: fake.endpoint, layout: { jsonDir: layout.jsonDir, imageDir: layout.imageDir } });
    const options = {
      tasksFile: path.join(layout.jsonDir, 'tasks_fuzzy.json'),
      gtFile: path.join(layout.jsonDir, 'test_mcp_GT.json'),
      imageDir: layout.imageDir,
      lockFile: layout.lockFile,
      allowMissingImages: true,
    };
    const clean = await verifyDataset(options);
    expect(clean.passed).toBe(true);
    expect(clean.lock.checks.map((check) => check.status)).toEqual(Array(6).fill('ok'));

    writeFileSync(path.join(layout.imageDir, '00010000.png'), 'this is text, not a picture');
    const broken = await verifyDataset(options);
    expect(broken.passed).toBe(false);
    expect(broken.failures).toEqual(['1 file(s) named as images are not images', '1 of 6 file(s) differ from the lock file or are gone']);
    expect(broken.images.checks.find((check) => check.ref === 'images/00010000.png')?.status).toBe('not-image');
    expect(broken.lock.checks.find((check) => check.path === 'images/00010000.png')).toMatchObject({
      status: 'mismatch',
      detail: expect.stringMatching(/^size 27 bytes, the lock says \d+$/),
    });

    writeFileSync(layout.lockFile, JSON.stringify({ version: 1, repo, files: [] }));
    const error = (await verifyDataset(options).catch((caught: unknown) => caught)) as DatasetError;
    expect(error).toBeInstanceOf(DatasetError);
    expect(error.message).toContain(`${layout.lockFile}: at $.endpoint:`);
    expect(error.message).toContain('run `m3 dataset pull` again to rebuild it');
  });
});
