import assert from 'node:assert/strict';
import { decodeText } from '../../src/indexing/fileText';
import { isSecretFile } from '../../src/indexing/secretFiles';
import { REDACTED, redactSecrets } from '../../src/indexing/secretScan';

describe('indexing: secret files are never read', () => {
	it('recognises env, key, certificate and credential files by path', () => {
		for (const p of [
			'.env',
			'app/.env.local',
			'.env.production',
			'.envrc',
			'certs/server.pem',
			'tls/server.key',
			'keys/id_rsa',
			'id_rsa.pub',
			'id_ed25519_work',
			'a/b.p12',
			'c.pfx',
			'release.keystore',
			'.npmrc',
			'sub/.pypirc',
			'.netrc',
			'home/.aws/credentials',
			'.docker/config.json',
			'.git-credentials',
			'infra/terraform.tfstate',
		]) {
			assert.equal(isSecretFile(p), true, p);
		}
	});
	it('leaves ordinary files alone', () => {
		for (const p of [
			'src/env.ts',
			'environment.py',
			'docs/keys.md',
			'src/keyboard.c',
			'config.py',
			'README.md',
			'src/token.ts',
			'aws/config.ts',
		]) {
			assert.equal(isSecretFile(p), false, p);
		}
	});
});

describe('indexing: secrets inside indexed text are redacted', () => {
	const redact = (text: string, path = 'src/a.ts') => redactSecrets(text, path);

	it('replaces the body of a private-key block and keeps its line count', () => {
		const text =
			'const k = `-----BEGIN RSA PRIVATE KEY-----\nMIIEsecretline1\nsecretline2\n-----END RSA PRIVATE KEY-----`;\nuse(k);';
		const r = redact(text);
		assert.ok(!r.text.includes('secretline'));
		assert.equal(r.text.split('\n').length, text.split('\n').length);
		assert.match(r.text, /-----BEGIN RSA PRIVATE KEY-----\[REDACTED\]\n\n\n-----END RSA PRIVATE KEY-----/);
		assert.deepEqual(r.found, { 'private-key': 1 });
	});
	it('redacts an unterminated private-key block to the end of the text', () => {
		const r = redact('-----BEGIN OPENSSH PRIVATE KEY-----\nabc\ndef');
		assert.equal(r.text, `-----BEGIN OPENSSH PRIVATE KEY-----${REDACTED}\n\n`);
	});
	it('redacts tokens recognisable by their prefix', () => {
		const cases: Array<[string, string]> = [
			['aws-access-key', 'AKIAZZTESTPLANTED123'],
			['github-token', 'ghp_' + 'a1B2'.repeat(9)],
			['slack-token', 'xoxb-1234567890-abcdefghij'],
			['openai-key', 'sk-proj-' + 'Ab1'.repeat(10)],
			['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
		];
		for (const [kind, token] of cases) {
			const r = redact(`call(${token}) // ${kind}`);
			assert.equal(r.text, `call(${REDACTED}) // ${kind}`, kind);
			assert.equal(r.found[kind], 1, kind);
		}
	});
	it('redacts literals assigned to secret-sounding names, in code and in config files', () => {
		assert.equal(redact('password = "PlantedPassw0rdXyz"').text, `password = "${REDACTED}"`);
		assert.equal(redact("DB_PASSWORD := 'x9y8z7'").text, `DB_PASSWORD := '${REDACTED}'`);
		assert.equal(redact('{"api_key": "abc123def"}').text, `{"api_key": "${REDACTED}"}`);
		assert.equal(redact("SECRET_KEY = 'django-insecure-123'", 'settings.py').text, `SECRET_KEY = '${REDACTED}'`);
		assert.equal(redact('db:\n  password: hunter2\n', 'config.yml').text, `db:\n  password: ${REDACTED}\n`);
	});
	it('leaves look-alikes and placeholders alone', () => {
		for (const t of [
			'tokenizer = "bert-base"',
			'password = ""',
			'if password == "x": pass',
			'api_key = "${API_KEY}"',
			'token = getToken()',
			'const skip = "sk-short"',
			'max_tokens = "5"',
		]) {
			assert.equal(redact(t, 'src/a.py').text, t, t);
		}
		for (const t of ['password: <your password>', 'token: ${TOKEN}', 'tokenizer: bert'])
			assert.equal(redact(t, 'x.yaml').text, t, t);
	});
});

describe('indexing: decoding', () => {
	const limits = { sniffBytes: 8192, maxControlRatio: 0.1 };
	const bytes = (...b: number[]) => Uint8Array.from(b);

	it('decodes UTF-8 and drops its BOM', () => {
		const r = decodeText(new TextEncoder().encode('\uFEFFcafé'), limits);
		assert.deepEqual(r, { ok: true, text: 'café', encoding: 'utf-8' });
	});
	it('decodes UTF-16 only with a BOM', () => {
		assert.deepEqual(decodeText(bytes(0xff, 0xfe, 0x68, 0, 0x69, 0), limits), {
			ok: true,
			text: 'hi',
			encoding: 'utf-16le',
		});
		assert.deepEqual(decodeText(bytes(0xfe, 0xff, 0, 0x68, 0, 0x69), limits), {
			ok: true,
			text: 'hi',
			encoding: 'utf-16be',
		});
	});
	it('calls a NUL byte binary', () => {
		assert.deepEqual(decodeText(bytes(0x89, 0x50, 0x4e, 0x47, 0, 1), limits), {
			ok: false,
			reason: 'binary',
			detail: 'NUL byte',
		});
	});
	it('skips a NUL after the sniffed head as nul, whatever the encoding (Postgres text cannot hold one)', () => {
		const late = Buffer.concat([Buffer.from('a'.repeat(limits.sniffBytes + 10)), bytes(0), Buffer.from('tail')]);
		assert.equal(decodeText(late, limits).ok, false);
		assert.equal((decodeText(late, limits) as { reason: string }).reason, 'nul');
		const utf16 = bytes(0xff, 0xfe, 0x68, 0, 0, 0, 0x69, 0); // "h\0i"
		assert.equal((decodeText(utf16, limits) as { reason: string }).reason, 'nul');
	});
	it('falls back to Latin-1 for text that is not UTF-8', () => {
		assert.deepEqual(decodeText(bytes(0x63, 0x61, 0x66, 0xe9, 0x20, 0xa3), limits), {
			ok: true,
			text: 'café £',
			encoding: 'latin1',
		});
	});
	it('skips bytes that are neither UTF-8 nor plausible text as encoding', () => {
		const r = decodeText(bytes(1, 2, 3, 4, 5, 6, 0xff, 0x41), limits);
		assert.equal(r.ok, false);
		assert.equal(!r.ok && r.reason, 'encoding');
	});
});
