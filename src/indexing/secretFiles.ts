/**
 * Files that are never read, by name: environment files, keys and certificates, and credential
 * stores. Matching is on the path alone, so their bytes never enter the process, let alone the
 * index. `.npmrc`/`.pypirc` are skipped whole: they hold tokens often enough, and almost never
 * knowledge worth searching.
 */

// Basenames (lower-cased) matched exactly.
const SECRET_NAMES = new Set([
	'.npmrc',
	'.pypirc',
	'.netrc',
	'_netrc',
	'.git-credentials',
	'.pgpass',
	'.htpasswd',
	'.dockercfg',
	'credentials.json',
	'client_secret.json',
	'service-account.json',
	'secrets.json',
	'secrets.yml',
	'secrets.yaml',
	'.vault-token',
	'terraform.tfvars',
	'id_rsa',
	'id_dsa',
	'id_ecdsa',
	'id_ed25519',
]);

// Basename patterns: .env and .env.*, .envrc; ssh keys with suffixes (id_rsa.pub, id_ed25519_work).
const SECRET_NAME_PATTERNS: readonly RegExp[] = [
	/^\.env(\..*)?$/,
	/^\.envrc$/,
	/^id_(rsa|dsa|ecdsa|ed25519)([._-].*)?$/,
	/\.(pem|key|p12|pfx|p8|keystore|jks|ppk|crt|cer|der|gpg|pgp|asc|kdbx|tfstate|tfvars)$/,
	/\.tfstate\.backup$/,
];

// Credential files recognised by their folder: ~/.aws/credentials, ~/.docker/config.json, ~/.ssh/*.
const SECRET_PATHS: readonly RegExp[] = [
	/(^|\/)\.aws\/(credentials|config)$/,
	/(^|\/)\.docker\/config\.json$/,
	/(^|\/)\.ssh\//,
	/(^|\/)\.gnupg\//,
];

/** True when a workspace-relative path (`/` separators) names a secret file that must not be read. */
export function isSecretFile(relPath: string): boolean {
	const base = relPath.slice(relPath.lastIndexOf('/') + 1).toLowerCase();
	if (SECRET_NAMES.has(base)) return true;
	if (SECRET_NAME_PATTERNS.some((p) => p.test(base))) return true;
	return SECRET_PATHS.some((p) => p.test(relPath));
}
