/**
 * The extension's store settings: embedded folder by default, a server URL with the password from
 * SecretStorage injected (never from settings, never shown), the scope setting, and plain advice
 * when the store cannot be opened.
 */
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolveStoreLocation } from '../../src/store/location';
import {
	resolveStoreSettings,
	storeFailureAdvice,
	urlHasPassword,
	withPassword,
	withoutPassword,
	type StoreSettingValues,
} from '../../src/extension/settings/storeSettings';

const base: StoreSettingValues = {
	storagePath: undefined,
	databaseUrl: undefined,
	scope: undefined,
	password: null,
	env: {},
};

describe('extension store settings', () => {
	it('defaults to the embedded store the CLI uses, scope local', () => {
		const r = resolveStoreSettings(base);
		assert.deepEqual(r.location, { kind: 'folder', dir: join(homedir(), '.gated-memory', 'db') });
		assert.deepEqual(r.warnings, []);
		assert.equal(resolveStoreSettings({ ...base, storagePath: '~/mem' }).location.kind, 'folder');
	});

	it('uses the server URL with the SecretStorage password injected, and displays it without', () => {
		const r = resolveStoreSettings({
			...base,
			databaseUrl: 'postgres://gm@db.example:5432/memory',
			password: 'p@ss:w/rd',
			scope: 'team-a',
		});
		assert.equal(r.location.kind, 'url');
		assert.equal(r.location.kind === 'url' && new URL(r.location.url).password, encodeURIComponent('p@ss:w/rd'));
		assert.equal(r.location.scope, 'team-a');
		assert.doesNotMatch(r.display, /p@ss|w%2Frd|rd/);
		assert.deepEqual(r.warnings, []);
	});

	it('never uses a password written into the URL setting, and says so', () => {
		const r = resolveStoreSettings({ ...base, databaseUrl: 'postgres://gm:hunter2@db.example/memory' });
		assert.ok(r.passwordInUrl);
		assert.equal(
			r.location.kind === 'url' && urlHasPassword(r.location.url),
			false,
			'the settings password is dropped',
		);
		assert.match(r.warnings.join('\n'), /contains a password/);
		assert.doesNotMatch(JSON.stringify(r), /hunter2/);
		const withSecret = resolveStoreSettings({
			...base,
			databaseUrl: 'postgres://gm:hunter2@db.example/memory',
			password: 'from-keychain',
		});
		assert.equal(withSecret.location.kind === 'url' && new URL(withSecret.location.url).password, 'from-keychain');
	});

	it('falls back to the embedded store for a URL that is not postgres://, and for a bad scope to local', () => {
		const r = resolveStoreSettings({ ...base, databaseUrl: 'mysql://x@y/z', scope: "bad scope'" });
		assert.equal(r.location.kind, 'folder');
		assert.equal(r.location.scope, undefined);
		assert.equal(r.warnings.length, 2);
	});

	it('takes GMEM_SCOPE when the scope setting is empty', () => {
		assert.equal(resolveStoreSettings({ ...base, env: { GMEM_SCOPE: 'ci' } }).location.scope, 'ci');
		assert.equal(resolveStoreSettings({ ...base, env: { GMEM_SCOPE: 'ci' }, scope: 'me' }).location.scope, 'me');
	});

	it('gmem: --scope beats $GMEM_SCOPE, which beats local', () => {
		assert.equal(resolveStoreLocation('/s', { GMEM_SCOPE: 'env' }, '/', 'flag').scope, 'flag');
		assert.equal(resolveStoreLocation('postgres://u@h/d', { GMEM_SCOPE: 'env' }, '/').scope, 'env');
		assert.equal(resolveStoreLocation(undefined, {}, '/').scope, undefined);
	});

	it('adds and removes URL passwords', () => {
		assert.equal(withoutPassword('postgres://u:s@h/d'), 'postgres://u@h/d');
		assert.equal(withPassword('postgres://u@h/d', 's'), 'postgres://u:s@h/d');
		assert.equal(urlHasPassword('postgres://u@h/d'), false);
	});

	it('advises on refused connections, missing pgvector and passwords', () => {
		const refused = storeFailureAdvice(
			'cannot open the memory store (unreachable): cannot connect to postgres://u@h/d: connect ECONNREFUSED 127.0.0.1:5432',
		);
		assert.ok(refused.settings && !refused.password);
		assert.match(refused.text, /chat continues without stored memory/);
		assert.ok(
			storeFailureAdvice('cannot open the memory store (no-vector): the database server has no pgvector extension')
				.settings,
		);
		assert.ok(
			storeFailureAdvice('cannot open the memory store (unreachable): password authentication failed for user "u"')
				.password,
		);
		assert.equal(storeFailureAdvice('cannot open the memory store (corrupt): …').settings, false);
	});
});
