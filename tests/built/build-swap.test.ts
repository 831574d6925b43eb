import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { distFiles, readDist, root } from '../../scripts/local-site/dist.ts';

// `npm run build` builds into a temporary folder and swaps it in only when every step passed.
const work = mkdtempSync(join(tmpdir(), 'build-swap-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const contentDir = join(work, 'content');
const outDir = join(work, 'dist');
const generatedDir = join(work, 'generated');
cpSync(join(root, 'content'), contentDir, { recursive: true });

const build = () =>
  spawnSync('npm', ['run', 'build'], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      CONTENT_DIR: contentDir,
      OUT_DIR: outDir,
      GENERATED_DIR: generatedDir,
      ASTRO_CACHE_DIR: join(work, 'cache'),
      ASTRO_TELEMETRY_DISABLED: '1',
    },
  });

describe('npm run build', () => {
  it('leaves the last good site in place when a build fails', () => {
    mkdirSync(outDir);
    writeFileSync(join(outDir, 'last-good.txt'), 'served until a build succeeds');
    const file = join(contentDir, 'pages/services.md');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace(/^title:/m, 'titel:'));
    const failed = build();
    expect(failed.status).not.toBe(0);
    expect(`${failed.stdout}${failed.stderr}`).toContain('dist/ was left as it was');
    expect(readFileSync(join(outDir, 'last-good.txt'), 'utf8')).toBe('served until a build succeeds');
    expect(existsSync(generatedDir)).toBe(false);

    writeFileSync(file, good);
    const passed = build();
    expect(passed.status, passed.stderr.slice(-2000)).toBe(0);
    expect(existsSync(join(outDir, 'last-good.txt'))).toBe(false);
    expect(existsSync(join(outDir, 'services.html'))).toBe(true);
    expect(existsSync(join(outDir, 'build-data'))).toBe(false);
    expect(existsSync(join(generatedDir, 'knowledge.json'))).toBe(true);
  });

  it('builds the same content byte for byte as the build every other test reads', () => {
    const files = distFiles('**/*.{html,md,txt,json,xml}');
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) expect(readFileSync(join(outDir, file), 'utf8'), file).toBe(readDist(file));
  });
});
