/**
 * The engines the indexing integration tests run on, opened exactly as the CLI opens them
 * (openStore): PGlite in a temp store folder through its owner process (always), and the
 * PostgreSQL server named by GMEM_TEST_PG_URL when it is set (CONTRACT.md: said when skipped).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/openStore';
import type { StoreLocation } from '../../src/store/location';

/** One engine: `open()` gives a migrated store. */
export interface TestEngine {
	name: string;
	open(): Promise<Store>;
}

async function opened(location: StoreLocation): Promise<Store> {
	const r = await openStore(location);
	if (!r.ok) throw new Error(`cannot open the test store: ${r.error.message}`);
	return r.value;
}

/** PGlite, plus the server when GMEM_TEST_PG_URL is set; prints a line when the server is skipped. */
export function testEngines(suite: string): TestEngine[] {
	const pglite: TestEngine = { name: 'PGlite', open: () => opened({ kind: 'folder', dir: mkdtempSync(join(tmpdir(), 'gmem-idx-db-')) }) };
	const url = process.env.GMEM_TEST_PG_URL;
	if (!url) {
		console.log(`  (${suite}: GMEM_TEST_PG_URL is not set, so the PostgreSQL server run was skipped; PGlite ran)`);
		return [pglite];
	}
	return [pglite, { name: 'PostgreSQL server', open: () => opened({ kind: 'url', url }) }];
}
