// Prints the license text of every npm package whose files went into a bundle, given
// esbuild metafiles. Used by build.sh; fails if a bundled package has no license file.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const packages = new Set();
for (const meta of process.argv.slice(2)) {
  const { outputs } = JSON.parse(readFileSync(meta, "utf8"));
  const used = Object.values(outputs).flatMap((o) =>
    Object.entries(o.inputs).filter(([, v]) => v.bytesInOutput > 0).map(([p]) => p),
  );
  for (const path of used) {
    const m = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g);
    if (m) packages.add(m[m.length - 1].slice("node_modules/".length, -1));
  }
}
const out = [];
for (const name of [...packages].sort()) {
  const dir = join("node_modules", name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  if (!file) {
    console.error(`no license file in ${name}@${pkg.version} (${pkg.license})`);
    process.exit(1);
  }
  out.push(`${"=".repeat(72)}\n${name}@${pkg.version} — ${pkg.license}\n${"=".repeat(72)}\n`);
  out.push(readFileSync(join(dir, file), "utf8").trim() + "\n\n");
}
process.stdout.write(out.join(""));
