/**
 * Where the extension's memory store lives, from its settings: the embedded store folder
 * (`gatedMemory.storage.path`, else `$GMEM_DB`, else `~/.gated-memory/db`) or a PostgreSQL server
 * (`gatedMemory.database.url`). A server's password never lives in settings: it comes from
 * SecretStorage and is put into the URL only when the store is opened; logs see the redacted URL.
 * No `vscode` import: the host (storeSettingsUi.ts) supplies the values.
 */
import { isPostgresUrl, scopeNameError, type StoreLocation } from '../../store/location';
import { redactUrl } from '../../store/pgQueryable';
import { extensionStoreLocation } from '../../chat/workspaceMemory';

/** The SecretStorage key of the database password. */
export const DATABASE_PASSWORD_SECRET = 'gatedMemory.database.password';

/** What the settings and SecretStorage hold. */
export interface StoreSettingValues {
	storagePath: string | undefined;
	databaseUrl: string | undefined;
	scope: string | undefined;
	/** From SecretStorage; null when none is stored. */
	password: string | null;
	env: NodeJS.ProcessEnv;
}

/** The location to open, what to log instead of it, and what the user should be told. */
export interface ResolvedStore {
	location: StoreLocation;
	/** The location without any password, for logs and messages. */
	display: string;
	/** Plain-language problems with the settings (a password in the URL, a bad scope…). */
	warnings: string[];
	/** True when `gatedMemory.database.url` carries a password (it is ignored). */
	passwordInUrl: boolean;
}

/** True when a URL carries a password (`postgres://user:secret@host/db`). */
export function urlHasPassword(url: string): boolean {
	try {
		return new URL(url).password !== '';
	} catch {
		return false;
	}
}

/** The URL without its password (what may be written back to settings). */
export function withoutPassword(url: string): string {
	const u = new URL(url);
	u.password = '';
	return u.toString();
}

/** The URL with `password` in it (percent-encoded), for the connection only. */
export function withPassword(url: string, password: string): string {
	const u = new URL(url);
	u.password = encodeURIComponent(password);
	return u.toString();
}

/**
 * Resolves the store from the settings. A URL that is not `postgres://` or carries a password is
 * reported, and a password in it is never used: the one from SecretStorage is.
 */
export function resolveStoreSettings(v: StoreSettingValues): ResolvedStore {
	const warnings: string[] = [];
	const scope = v.scope?.trim() || undefined;
	const scoped = (loc: StoreLocation): StoreLocation => (scope && !scopeNameError(scope) ? { ...loc, scope } : loc);
	if (scope && scopeNameError(scope))
		warnings.push(`gatedMemory.database.scope: ${scopeNameError(scope)}; using "local"`);
	const url = v.databaseUrl?.trim();
	let passwordInUrl = false;
	if (url && isPostgresUrl(url)) {
		passwordInUrl = urlHasPassword(url);
		if (passwordInUrl) {
			warnings.push(
				'gatedMemory.database.url contains a password, which settings must not hold: it is ignored. Use "Gated Memory: Set Database Password" to keep it in the OS keychain.',
			);
		}
		let bare: string;
		try {
			bare = passwordInUrl ? withoutPassword(url) : url;
		} catch {
			warnings.push('gatedMemory.database.url is not a valid URL; using the embedded store');
			return embedded(v, scoped, warnings);
		}
		const location = scoped({ kind: 'url', url: v.password ? withPassword(bare, v.password) : bare });
		return { location, display: redactUrl(bare), warnings, passwordInUrl };
	}
	if (url)
		warnings.push(
			`gatedMemory.database.url must start with postgres:// or postgresql:// (got "${redactUrl(url)}"); using the embedded store`,
		);
	return embedded(v, scoped, warnings);
}

function embedded(
	v: StoreSettingValues,
	scoped: (l: StoreLocation) => StoreLocation,
	warnings: string[],
): ResolvedStore {
	const base = extensionStoreLocation(v.storagePath, v.env);
	const location = scoped(base);
	// $GMEM_DB may itself be a server URL: never show its password either.
	const display = location.kind === 'url' ? redactUrl(location.url) : location.dir;
	return { location, display, warnings, passwordInUrl: false };
}

/** A store failure as the user should read it, and whether settings can fix it. */
export function storeFailureAdvice(message: string): { text: string; settings: boolean; password: boolean } {
	const password = /password authentication failed|no password|SASL|28P01/i.test(message);
	const settings =
		password || /\(unreachable\)|\(no-vector\)|\(bad-scope\)|ECONNREFUSED|ENOTFOUND|cannot connect/i.test(message);
	const hint = password
		? ' Set the password with "Gated Memory: Set Database Password".'
		: settings
			? ' Check gatedMemory.database.url.'
			: '';
	return {
		text: `Gated Memory could not open its memory store; chat continues without stored memory. ${message}${hint}`,
		settings,
		password,
	};
}
