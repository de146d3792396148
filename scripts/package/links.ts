// Relative links in Markdown files, checked against the files next to them: used by
// `npm run check:package` on the unpacked tarball, so that the README a user reads on npm or in
// node_modules links only to files that shipped (and to headings that exist in them).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface DeadLink {
  file: string;
  line: number;
  target: string;
  why: string;
}

/** Every Markdown file below `dir`, relative to it (node_modules excluded). */
function markdownFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : markdownFiles(full, base);
    return entry.name.endsWith('.md') ? [path.relative(base, full).split(path.sep).join('/')] : [];
  });
}

/** The text outside fenced code blocks and inline code, line by line (code is blanked, not removed). */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    if (marker !== undefined) {
      fence = marker;
      return '';
    }
    return line.replace(/(`+)[^`]*?\1/g, '');
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1/-2 for repeats. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker[0] === fence[0])) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link in a heading keeps its text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Link targets on one line of prose: inline links and images, reference definitions, HTML href/src. */
function targetsOn(line: string): string[] {
  const targets: string[] = [];
  for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]!);
  const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
  if (definition) targets.push(definition[1]!);
  for (const m of line.matchAll(/\b(?:href|src)="([^"]+)"/g)) targets.push(m[1]!);
  return targets;
}

export function deadLinks(dir: string): { checked: { files: string[]; links: number }; dead: DeadLink[] } {
  const files = markdownFiles(dir);
  const dead: DeadLink[] = [];
  let links = 0;
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let found = anchorCache.get(file);
    if (!found) anchorCache.set(file, (found = anchorsOf(readFileSync(path.join(dir, file), 'utf8'))));
    return found;
  };
  for (const file of files) {
    const lines = proseLines(readFileSync(path.join(dir, file), 'utf8'));
    lines.forEach((text, index) => {
      for (const target of targetsOn(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // https:, mailto:
        links++;
        const report = (why: string) => dead.push({ file, line: index + 1, target, why });
        const [rawPath = '', anchor] = target.split('#', 2);
        const linkPath = decodeURIComponent(rawPath);
        if (linkPath.startsWith('/')) {
          report('absolute path: it resolves against the host, not the package');
          continue;
        }
        const resolved = linkPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), linkPath));
        if (resolved.startsWith('../')) {
          report('points outside the package');
          continue;
        }
        const full = path.join(dir, resolved);
        if (!existsSync(full)) {
          report('not in the tarball');
          continue;
        }
        if (anchor !== undefined && anchor !== '' && resolved.endsWith('.md') && statSync(full).isFile()) {
          if (!anchors(resolved).has(decodeURIComponent(anchor).toLowerCase())) report(`no heading #${anchor} in ${resolved}`);
        }
      }
    });
  }
  return { checked: { files, links }, dead };
}
