/**
 * A pasted error's raising site end to end on both engines, with the product's models: the
 * message's phrases reach the chunk that raises it through the full-text index, that chunk leads
 * when the frames stop short of the raise (and only then), tests quoting the message never do,
 * and a type stub goes below the implementation beside it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { TraceStep } from '../../src/core/trace';
import { LinearReranker } from '../../src/models/linearReranker';
import { DEFAULT_RETRIEVAL_TUNING } from '../../src/retrieval/retrievalThresholds';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import { indexedRepoSuite } from '../fixtures/indexed_repo';
import { testEngines } from '../fixtures/store_engines';

const FILES: Record<string, string> = {
	'settings/config.py': `"""Reading settings files."""


class ConfigError(Exception):
    """A settings file that cannot be used."""


def section(doc, name):
    """Return the named section of a parsed settings file."""
    for s in doc.sections:
        if s.name == name:
            return s
    raise ConfigError("could not find a section named %r in the settings" % name)
`,
	'settings/loader.py': `"""Loading settings from disk."""
from .config import section


def load_settings(path, name):
    """Read a settings file and return one of its sections."""
    text = open(path).read()
    doc = parse_document(text)
    return section(doc, name)


def parse_document(text):
    """Split a settings document into its sections."""
    return Document(text.split("[")[1:])
`,
	'settings/loader.pyi': `"""Stubs for settings.loader: load_settings reads a settings file and returns one of its sections."""
def load_settings(path: str, name: str) -> object: ...
def parse_document(text: str) -> object: ...
`,
	'tests/test_config.py': `import pytest
from settings.config import section, ConfigError


def test_missing_section():
    with pytest.raises(ConfigError, match="could not find a section named 'db' in the settings"):
        section(EMPTY, "db")
`,
};

/** The trace note that starts with `prefix`, or undefined. */
function noteStarting(steps: readonly TraceStep[], prefix: string): string | undefined {
	for (const s of steps) if (s.kind === 'note' && s.message.startsWith(prefix)) return s.message;
	return undefined;
}

for (const engine of testEngines()) {
	describe(`raising site and stub prior (${engine.name})`, function () {
		this.timeout(120_000);
		const repo = indexedRepoSuite(engine, {
			prefix: 'gmem-raise-',
			builtinEmbedder: true,
			write: (root) => {
				for (const [p, text] of Object.entries(FILES)) {
					mkdirSync(dirname(join(root, p)), { recursive: true });
					writeFileSync(join(root, p), text);
				}
			},
		});
		const search = (query: string, tuning = DEFAULT_RETRIEVAL_TUNING, files = true) =>
			retrieveWorkspace(repo.store().db, {
				query,
				workspaceIds: [repo.ws()],
				k: 4,
				embedder: repo.embedder(),
				reranker: new LinearReranker(),
				floor: DEFAULT_THRESHOLDS.floor_workspace_question,
				thresholds: DEFAULT_THRESHOLDS,
				tuning,
				files,
			});
		const cut = `Traceback (most recent call last):
  File "/srv/app/main.py", line 3, in <module>
    cfg = load_settings("app.ini", "db")
  File "/home/u/.venv/lib/python3.11/site-packages/settings/loader.py", line 9, in load_settings
    return section(doc, name)
settings.config.ConfigError: could not find a section named 'db' in the settings`;

		it('a trace cut at the caller: the raising chunk leads, before the frame, and the trace says why', async () => {
			const r = await search(cut);
			assert.deepEqual(
				r.hits.slice(0, 2).map((h) => h.path),
				['settings/config.py', 'settings/loader.py'],
			);
			assert.match(r.hits[0].content, /raise ConfigError\("could not find a section named/);
			const note = noteStarting(r.steps, 'raising site:');
			assert.ok(note, JSON.stringify(r.steps.map((s) => s.kind)));
			assert.match(
				note,
				/^raising site: settings\/config\.py:\d+ holds "could not find a section named", "in the settings"; no frame reaches the raise, so it leads the evidence$/,
			);
		});

		it('with the rule off (raise_site_max 0) the frame leads: the fixture needs the rule', async () => {
			const r = await search(cut, { ...DEFAULT_RETRIEVAL_TUNING, raise_site_max: 0 });
			assert.equal(r.hits[0].path, 'settings/loader.py');
			assert.equal(noteStarting(r.steps, 'raising site:'), undefined);
		});

		it('only the error line: the raising chunk leads; the test quoting the message does not', async () => {
			const r = await search(`ConfigError: could not find a section named 'cache' in the settings`);
			assert.equal(r.hits[0].path, 'settings/config.py');
			assert.notEqual(r.hits[0].path, 'tests/test_config.py');
		});

		it('a full trace whose innermost frame raises: the frames lead, nothing else is pinned', async () => {
			const r = await search(`Traceback (most recent call last):
  File "/home/u/.venv/lib/python3.11/site-packages/settings/loader.py", line 9, in load_settings
    return section(doc, name)
  File "/home/u/.venv/lib/python3.11/site-packages/settings/config.py", line 13, in section
    raise ConfigError("could not find a section named %r in the settings" % name)
settings.config.ConfigError: could not find a section named 'db' in the settings`);
			assert.deepEqual(
				r.hits.slice(0, 2).map((h) => h.path),
				['settings/config.py', 'settings/loader.py'],
			);
			assert.match(noteStarting(r.steps, 'raising site:') ?? '', /the innermost frame raises, frames lead$/);
		});

		it('the prose list runs for a how-to turn in chunks mode only, and the trace says so', async () => {
			const ask = (query: string, files: boolean) => search(query, DEFAULT_RETRIEVAL_TUNING, files);
			const howto = 'how do I read one section of a settings file?';
			assert.match(
				noteStarting((await ask(howto, false)).steps, 'prose list:') ?? '',
				/^prose list: [1-9]\d* of the pool's chunks have docstrings, comments or names with the turn's words, fused at weight 0\.25$/,
			);
			assert.equal(noteStarting((await ask(howto, true)).steps, 'prose list:'), undefined);
			assert.equal(
				noteStarting((await ask('where is a settings section looked up?', false)).steps, 'prose list:'),
				undefined,
			);
		});

		it('a stub beside its implementation goes below it unless the turn is about types', async () => {
			const code = await search('where does load_settings read the file and return one of its sections?');
			const paths = code.hits.map((h) => h.path);
			assert.ok(paths.indexOf('settings/loader.py') < paths.indexOf('settings/loader.pyi'), paths.join(', '));
			assert.match(noteStarting(code.steps, 'file priors:') ?? '', /stub below implementation/);
			const types = await search('what type hints does the load_settings stub declare?');
			assert.match(noteStarting(types.steps, 'file priors:') ?? '', /the turn wants types/);
		});
	});
}
