import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { dist, distFiles, fileForPath, gzipSize, htmlPages, readDist } from '../../scripts/local-site/dist.ts';
import { MAX_TITLE_LENGTH } from '../../src/lib/pages/page-title.ts';
import { PROBLEM_TYPES } from '../../src/contract/http.ts';

// What people get from the built pages: budgets, one title and description each, valid HTML,
// the feed, tag pages, the developer page's tables and the 404 page.
const pages = htmlPages();
const KB = 1024;
const one = (html: string, re: RegExp) => [...html.matchAll(re)].map((m) => m[1] ?? '');
const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

describe('page budgets', () => {
  it.each(pages)('$path is at most 14 KB gzipped', ({ file }) => {
    expect(gzipSize(file)).toBeLessThanOrEqual(14 * KB);
  });

  it('ships one stylesheet of at most 8 KB gzipped, linked by every page, and no web font', () => {
    const sheets = distFiles('_astro/*.css');
    expect(sheets).toHaveLength(1);
    expect(gzipSize(sheets[0]!)).toBeLessThanOrEqual(8 * KB);
    for (const { file } of pages)
      expect(one(readDist(file), /<link rel="stylesheet" href="([^"]+)"/g)).toEqual([`/${sheets[0]}`]);
    expect(readDist(sheets[0]!)).not.toMatch(/@font-face|@import|url\(/);
    expect(distFiles('**/*.{woff,woff2,ttf,otf}')).toEqual([]);
  });

  it('only the workspace and the confirmation pages load a script: one module each, within 10 KB gzipped', () => {
    const scripts = distFiles('_astro/*.js');
    const workspace = scripts.find((file) => file.includes('workspace-script'))!;
    const answer = scripts.find((file) => file.includes('consent-answer'))!;
    expect(scripts.sort()).toEqual([answer, workspace].sort());
    for (const file of scripts) expect(gzipSize(file)).toBeLessThanOrEqual(10 * KB);
    for (const { file, path } of pages) {
      // Structured data (JSON-LD) and the WebMCP tool definitions are data blocks, not script.
      const tags = one(readDist(file), /<script\b([^>]*)>/g).filter(
        (attrs) => !/type="application\/(ld\+)?json"/.test(attrs),
      );
      const loads = path === '/proposal' ? workspace : path.startsWith('/confirm/') ? answer : undefined;
      expect(tags, path).toEqual(loads === undefined ? [] : [` type="module" src="/${loads}"`]);
    }
  });
});

describe('titles and descriptions', () => {
  it.each(pages)('$path has one <title> of at most 60 characters, one description and one H1', ({ file, path }) => {
    const html = readDist(file);
    const titles = one(html, /<title>([^<]*)<\/title>/g).map(decode);
    expect(titles).toHaveLength(1);
    expect(titles[0]!.length, titles[0]).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
    expect(one(html, /<meta name="description" content="([^"]*)"/g)).toHaveLength(1);
    const h1 = one(html, /<h1[^>]*>([\s\S]*?)<\/h1>/g).map((h) => decode(h.replace(/<[^>]+>/g, '').trim()));
    expect(h1).toHaveLength(1);
    // The title says what the H1 says (the site's name may follow it).
    expect(titles[0], path).toContain(h1[0]!.slice(0, Math.min(h1[0]!.length, 40)));
    expect(one(html, /<meta property="og:title" content="([^"]*)"/g).map(decode)).toEqual(titles);
  });

  it('no two pages share a title', () => {
    const titles = pages.map(({ file }) => one(readDist(file), /<title>([^<]*)<\/title>/g)[0]);
    expect(new Set(titles).size).toBe(titles.length);
  });
});

describe('HTML validity', () => {
  it('the W3C Nu HTML Checker finds no error in any page', () => {
    const jar = createRequire(import.meta.url)('vnu-jar') as string;
    const files = pages.map(({ file }) => join(dist, file));
    let report = '';
    try {
      execFileSync('java', ['-jar', jar, '--errors-only', '--format', 'json', ...files], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      report = String((error as { stderr?: string }).stderr ?? error);
    }
    const messages = report
      ? (JSON.parse(report) as { messages: { url: string; message: string; lastLine?: number }[] }).messages
      : [];
    // The declarative WebMCP attributes are newer than the checker's schema.
    const errors = messages.filter(
      (m) => !/Attribute “tool(?:name|description|paramdescription)” not allowed/.test(m.message),
    );
    expect(errors.map((m) => `${m.url.replace(/^.*\/dist\//, '')}:${m.lastLine}: ${m.message}`)).toEqual([]);
  }, 120_000);
});

describe('blog feed and tags', () => {
  it('publishes /rss.xml with every post, linked from every page', () => {
    const rss = readDist('rss.xml');
    expect(rss).toMatch(/^<\?xml[^>]*\?><rss version="2.0"/);
    const posts = pages.filter((p) => /^\/blog\/(?!tags\/|archive\/)[^/]+$/.test(p.path));
    expect(posts.length).toBeGreaterThan(0);
    for (const p of posts) expect(rss).toContain(`${p.path}</link>`);
    for (const { file } of pages)
      expect(readDist(file)).toMatch(/<link rel="alternate" type="application\/rss\+xml" href="[^"]+\/rss\.xml"/);
  });

  it('every tag on a post links to its tag page, which has a twin and lists the post', () => {
    const posts = pages.filter((p) => /^\/blog\/(?!tags\/|archive\/)[^/]+$/.test(p.path));
    let links = 0;
    for (const p of posts) {
      for (const tagPath of one(readDist(p.file), /href="(\/blog\/tags\/[^"]+)"/g)) {
        links++;
        expect(fileForPath(tagPath), tagPath).toBeDefined();
        expect(fileForPath(`${tagPath}.md`), `${tagPath}.md`).toBeDefined();
        expect(readDist(fileForPath(tagPath)!)).toContain(`href="${p.path}"`);
      }
    }
    expect(links).toBeGreaterThan(0);
  });
});

describe('the proof a buyer looks for', () => {
  const imgs = (html: string) =>
    [...html.matchAll(/<img\b([^>]*)>/g)].map((m) => ({
      src: /src="([^"]+)"/.exec(m[1]!)?.[1] ?? '',
      alt: decode(/alt="([^"]*)"/.exec(m[1]!)?.[1] ?? ''),
      sized: /width="\d+"/.test(m[1]!) && /height="\d+"/.test(m[1]!),
    }));
  const main = (file: string) => /<main[\s\S]*<\/main>/.exec(readDist(file))![0];
  const text = (html: string) => decode(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');

  it('every image has its size, and alt text unless a name beside it labels it', () => {
    for (const { file } of pages) {
      const html = readDist(file);
      for (const image of imgs(html)) {
        expect(image.sized, `${file}: ${image.src}`).toBe(true);
        if (image.alt === '')
          expect(html, `${file}: ${image.src}`).toMatch(
            /<img[^>]*\balt(?:="")?[ >][^>]*>\s*<span class="(?:sr-only|brand-name)">/,
          );
      }
    }
  });

  it('home: a picture beside the headline, the tier and named competencies, the logo wall, a quote and people', () => {
    const html = main('index.html');
    expect(html).toMatch(
      /<section class="hero with-image"[\s\S]*<img class="hero-image" src="\/_astro\/[^"]+\.svg" alt="A diagram of how an engagement runs/,
    );
    expect(text(html)).toContain('AWS Advanced Tier Services Partner');
    for (const name of [
      'Migration and Modernization Consulting',
      'DevOps Consulting',
      'Generative AI Consulting',
      'Security Consulting',
    ])
      expect(text(html)).toContain(name);
    const wall = /<ul class="logos"[\s\S]*?<\/ul>/.exec(html)![0];
    expect(imgs(wall)).toHaveLength(6);
    // The three clients with a case study link to it.
    expect(one(wall, /href="(\/case-studies\/[^"]+)"/g)).toHaveLength(3);
    for (const path of one(wall, /href="(\/case-studies\/[^"]+)"/g)) expect(fileForPath(path), path).toBeDefined();
    expect(html).toMatch(
      /<figure class="quote"><blockquote><p>[^<]+<\/p><\/blockquote><figcaption><strong>[^<]+<\/strong>/,
    );
    expect(imgs(/<ul class="people">[\s\S]*?<\/ul>/.exec(html)![0]).length).toBeGreaterThanOrEqual(3);
    expect(imgs(html).length).toBeGreaterThanOrEqual(15);
  });

  it('/about names the people with photo, role and bio, and the founding year, team, offices and phone', () => {
    const html = main('about.html');
    const people = [
      ...html.matchAll(
        /<li class="person"><img[^>]*alt="([^"]+)"[^>]*>\s*<div><h3 id="([\w-]+)">([^<]+)<\/h3><p class="role">([^<]+)<\/p>\s*<p>/g,
      ),
    ];
    expect(people.length).toBeGreaterThanOrEqual(5);
    for (const [, alt, , name] of people) expect(decode(alt!)).toContain(decode(name!));
    for (const fact of [
      'Founded',
      '2016',
      '48 people',
      'Bristol, Dublin, Toronto',
      '+44 117 496 0123',
      '2 Harbour Wharf',
    ])
      expect(text(html)).toContain(fact);
    expect(html).toContain('href="tel:+441174960123"');
  });

  it('/aws-credentials shows the tier and each competency by name with its badge, and every client', () => {
    const html = main('aws-credentials.html');
    const badges = [...html.matchAll(/<li><img[^>]*alt="([^"]+)"[^>]*>\s*<span>([^<]+)<\/span><\/li>/g)];
    expect(badges.map((b) => decode(b[2]!))).toEqual([
      'AWS Advanced Tier Services Partner',
      'Migration and Modernization Consulting',
      'DevOps Consulting',
      'Generative AI Consulting',
      'Security Consulting',
    ]);
    const capabilities = JSON.parse(readDist('api/capabilities.json')) as {
      evidence: { cloud_partner_highlights: { competencies: string } };
    };
    expect(capabilities.evidence.cloud_partner_highlights.competencies).toBe(String(badges.length - 1));
    expect(imgs(/<ul class="logos"[\s\S]*?<\/ul>/.exec(html)![0])).toHaveLength(6);
  });

  it('a case study shows the client logo, its figures large at the top, a diagram and the client quote', () => {
    for (const file of distFiles('case-studies/*.html')) {
      const html = main(file);
      expect(html, file).toMatch(
        /<figure class="picture client-logo"><img src="[^"]+" alt="[^"]+ logo"[^>]*loading="eager"/,
      );
      const figures = /<ul class="figures">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
      expect(one(figures, /<strong>([^<]+)<\/strong>/g).length, file).toBeGreaterThanOrEqual(2);
      expect(html.indexOf('class="figures"'), file).toBeLessThan(html.indexOf('id="challenge"'));
      expect(html, file).toMatch(/<figure class="picture"><img src="\/_astro\/[^"]+\.svg" alt="A [^"]+"/);
      expect(html, file).toMatch(/<figure class="quote">/);
    }
  });

  it('a post names its author with photo and role, from content/people/, and the date as people write it', () => {
    const html = main('blog/preparing-for-a-well-architected-review.html');
    expect(html).toMatch(
      /<p class="byline"><img src="[^"]+" alt="Illustrated portrait of Priya Raman[^"]*"[^>]*><span><time datetime="2026-02-24">24 February 2026<\/time>, by <a href="\/about#priya-raman">Priya Raman<\/a>, Principal Architect and co-founder\.<\/span><\/p>/,
    );
    expect(fileForPath('/about')).toBeDefined();
    expect(readDist('about.html')).toContain('id="priya-raman"');
  });

  it('the JSON-LD carries the same facts: the tier and competencies, contact facts, the people and the quotes', () => {
    const graph = (file: string) =>
      (
        JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(readDist(file))![1]!) as {
          '@graph': Record<string, unknown>[];
        }
      )['@graph'];
    const org = graph('index.html')[0]!;
    expect(org).toMatchObject({
      telephone: '+44 117 496 0123',
      foundingDate: '2016',
      numberOfEmployees: { value: 48 },
      legalName: 'Kestrel Cloud Ltd',
    });
    expect(org['award']).toEqual(
      expect.arrayContaining(['AWS Advanced Tier Services Partner', 'AWS DevOps Consulting Competency']),
    );
    expect(org['hasCredential']).toHaveLength(5);
    expect((org['address'] as unknown[]).length).toBe(3);
    const people = graph('about.html').filter((n) => n['@type'] === 'Person');
    expect(people.length).toBeGreaterThanOrEqual(5);
    for (const person of people)
      expect(person).toMatchObject({ jobTitle: expect.any(String), image: expect.stringMatching(/^https:/) });
    const quotes = graph('case-studies/harbourline-logistics-data-center-migration.html').filter(
      (n) => n['@type'] === 'Quotation',
    );
    expect(quotes).toEqual([expect.objectContaining({ creator: expect.objectContaining({ name: 'Marta Kowalski' }) })]);
    const article = graph('blog/preparing-for-a-well-architected-review.html').find((n) => n['@type'] === 'Article')!;
    expect(article['author']).toMatchObject({
      '@type': 'Person',
      name: 'Priya Raman',
      jobTitle: 'Principal Architect and co-founder',
    });
  });
});

describe('one voice', () => {
  /** What a person reads: the body without scripts and without code (the API's replies, shown as they are). */
  const visible = (html: string) =>
    decode(
      /<body[\s\S]*<\/body>/
        .exec(html)![0]
        .replace(/<(script|pre)\b[\s\S]*?<\/\1>/g, ' ')
        .replace(/<[^>]+>/g, ' '),
    ).replace(/\s+/g, ' ');
  const sitePages = pages.filter((p) => !p.path.startsWith('/confirm/'));

  it('says once on every page that the partner is independent, and nowhere what it is not', () => {
    for (const { file } of [...sitePages, { file: '404.html' }]) {
      const text = visible(readDist(file));
      expect(text.match(/\bindependent\b/gi)?.length, file).toBe(1);
      expect(text, file).not.toMatch(/\bnot (?:AWS|Amazon Web Services)\b/);
    }
    // On the home page, in the headline; on /agents, in its rules; elsewhere in the footer.
    expect(one(readDist('index.html'), /<h1 id="headline">([^<]+)<\/h1>/g)[0]).toMatch(/^Independent /);
    expect(/<footer[\s\S]*<\/footer>/.exec(readDist('services.html'))![0]).toContain(
      'Kestrel Cloud is an independent cloud consulting and delivery partner and an AWS Advanced Tier Services Partner.',
    );
  });

  it('gives each page one name: its navigation label starts its title, and every button to it says the same', () => {
    const html = readDist('index.html');
    const nav = [
      .../<nav class="nav-wide"[\s\S]*?<\/nav>/.exec(html)![0].matchAll(/href="([^"]+)"[^>]*>\s*([^<]+?)\s*</g),
    ];
    expect(nav.length).toBeGreaterThan(5);
    for (const [, href, label] of nav) {
      const h1 = one(readDist(`${href!.slice(1)}.html`), /<h1[^>]*>([^<]+)<\/h1>/g)[0]!;
      expect(decode(h1), href).toMatch(new RegExp(`^${decode(label!).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    expect(html).toContain('<a class="button secondary" href="/agents">For AI agents</a>');
    expect(one(readDist('partners.html'), /<h1[^>]*>([^<]+)<\/h1>/g)).toEqual(['AWS programs']);
  });

  it('writes dates as people write them, with the ISO date for machines', () => {
    const month = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
    for (const file of ['blog.html', 'index.html', 'case-studies.html']) {
      for (const [, shown] of readDist(file).matchAll(/<time datetime="\d{4}-\d{2}-\d{2}">([^<]+)<\/time>/g))
        expect(shown, file).toMatch(new RegExp(`^\\d{1,2} ${month} \\d{4}$`));
    }
    expect(readDist('blog.html')).toContain('<time datetime="2026-10-06">6 October 2026</time>');
    expect(readDist('case-studies/harbourline-logistics-data-center-migration.html')).toContain(
      '<dd>17 March 2026</dd>',
    );
  });

  it('shows tags as content writes them, at a lower-case address', () => {
    const html = readDist('blog/cutting-contact-center-handle-time-with-generative-ai.html');
    expect(html).toContain('<a href="/blog/tags/generative-ai">Generative AI</a>');
    expect(one(readDist('blog/tags/generative-ai.html'), /<h1[^>]*>([^<]+)<\/h1>/g)).toEqual([
      'Posts tagged “Generative AI”',
    ]);
  });
});

describe('pages people compare firms by', () => {
  it('home: headline, offer, both calls to action, the proof band and capability cards', () => {
    const html = readDist('index.html');
    expect(html).toMatch(
      /<a class="button primary" href="\/proposal">Request a proposal<\/a>\s*<a class="button secondary" href="\/agents">For AI agents<\/a>/,
    );
    expect(html).toContain('<strong>50+</strong> customer launches');
    const services = one(html, /<h3><a href="(\/services#[\w-]+)">/g);
    expect(services.length).toBe(5);
    const servicesPage = readDist('services.html');
    for (const s of services) expect(servicesPage).toContain(`id="${s.split('#')[1]}"`);
  });

  it('every page has exactly one primary button in its header, to the workspace', () => {
    for (const { file } of pages) {
      const header = /<header[\s\S]*?<\/header>/.exec(readDist(file))?.[0] ?? '';
      expect(one(header, /class="button primary[^"]*" href="([^"]+)"/g)).toEqual(['/proposal']);
      expect(header).toMatch(/<details class="menu"><summary>Menu<\/summary>/);
    }
  });

  it('a case study gives each outcome once, after challenge and approach, and links capabilities and model', () => {
    const file = distFiles('case-studies/*.html')[0]!;
    const text = readDist(file);
    const headings = one(text, /<h2[^>]*>([^<]+)<\/h2>/g);
    expect(headings.indexOf('Challenge')).toBeLessThan(headings.indexOf('Approach'));
    expect(headings.indexOf('Approach')).toBeLessThan(headings.indexOf('Outcomes'));
    for (const outcome of one(text, /<ul class="outcomes">([\s\S]*?)<\/ul>/g)[0]!
      .split('</li>')
      .filter(Boolean)) {
      const words = outcome.replace(/<[^>]+>/g, '').trim();
      expect(text.split(words).length - 1, words).toBe(1);
    }
    expect(text).toMatch(/href="\/services#[\w-]+"/);
    expect(text).toMatch(/href="\/delivery-models#[\w-]+"/);
    expect(text).toContain('class="closing"');
  });

  it('the developer page tables every problem type with its anchor and shows the five exchanges', () => {
    const html = readDist('agents.html');
    for (const id of Object.keys(PROBLEM_TYPES)) expect(html).toContain(`<tr id="problem-${id}">`);
    for (const id of ['guide', 'summarize', 'submit', 'replay', 'problem'])
      expect(html).toContain(`id="example-${id}"`);
    expect(html).toContain('Idempotent-Replayed: true');
    expect(html).toContain('HTTP/1.1 422');
    // Link text is words or paths, never a full URL.
    expect(html).not.toMatch(/>https?:\/\/[^<]+<\/a>/);
  });

  it('the AWS programs page states the disclaimer once', () => {
    const html = readDist('partners.html').replace(/<[^>]+>/g, ' ');
    expect(html.match(/alone decides eligibility/g)).toHaveLength(1);
    expect(html.match(/may qualify/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it('every page ends with a call to action, its words from content/pages/', () => {
    // The confirmation pages answer one email link and end with its answer (src/components/consent-answer.astro).
    for (const { file } of [...pages.filter((p) => !p.path.startsWith('/confirm/')), { file: '404.html' }]) {
      const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(readDist(file))![1]!;
      const last = main.slice(main.lastIndexOf('<section'));
      expect(last, file).toMatch(
        /^<section class="closing" aria-labelledby="next-step"><h2 id="next-step">[^<]+<\/h2><p>.+?<\/p><p class="actions"><a class="button primary" href="[^"]+">/,
      );
      expect(last.replace(/<\/section>\s*$/, ''), file).not.toContain('</section>');
    }
  });

  it('the 404 page is in the site frame and not indexed, its words from content/pages/not-found.md', () => {
    const html = readDist('404.html');
    expect(html).toContain('There is no page at this address.');
    expect(html).toContain('<header class="site-header">');
    expect(html).toContain('<footer class="site-footer">');
    expect(html).toContain('<meta name="robots" content="noindex">');
  });
});
