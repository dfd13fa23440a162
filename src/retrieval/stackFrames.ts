/**
 * Pasted failures → frames (issue 15 item 4). Pure: the text of a stack trace or failing-test
 * output in, (path, line, function) frames out — innermost first, whatever order the language
 * prints them in — plus the error's type and message and the text that is not frames (the
 * user's own words). Python tracebacks and pytest, Node/JS/TS (jest, vitest), Go panics and
 * go test, Java/Kotlin, Rust panics and backtraces, C#. Mapping frames to workspace files is
 * matchFramePath's job (longest path-suffix match), fetching their chunks the caller's.
 */

/** One frame of a trace. */
export interface StackFrame {
	/** As printed, `/` separators (site-packages, node_modules, a CI runner's checkout…). */
	path: string;
	line: number;
	/** The function or method, as printed (`get_template`, `Route.<computed>`, `(*Command).ExecuteC`); null when absent. */
	func: string | null;
	language: 'python' | 'javascript' | 'go' | 'java' | 'rust' | 'csharp';
}

/** What a pasted failure holds. */
export interface ParsedFailure {
	/** Innermost (where it failed) first. */
	frames: StackFrame[];
	/** `KeyError`, `TypeError`, `java.lang.IllegalStateException`, `panic`…; null when none is printed. */
	errorType: string | null;
	errorMessage: string | null;
	/** The lines that are neither frames nor the source lines printed under them. */
	rest: string;
}

/** Backslashes to slashes (a Windows path as printed). */
export const slash = (p: string) => p.replace(/\\/g, '/');

interface LineRule {
	re: RegExp;
	language: StackFrame['language'];
	/** Whether the language prints the innermost frame last (Python, pytest). */
	innermostLast: boolean;
	frame: (m: RegExpExecArray) => Omit<StackFrame, 'language'> | null;
	/** The error a frame line also carries (go test's `x_test.go:33: message`). */
	error?: (m: RegExpExecArray) => { type: string; message: string | null };
}

const RULES: LineRule[] = [
	// Python: File "/x/y.py", line 12, in func
	{
		re: /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/,
		language: 'python',
		innermostLast: true,
		frame: (m) => ({ path: m[1], line: +m[2], func: m[3] ?? null }),
	},
	// pytest long / short: path.py:27: in func   |   path.py:27: AssertionError
	{
		re: /^\s*([^\s:"'()]+\.py):(\d+):(?: in (\S+))?/,
		language: 'python',
		innermostLast: true,
		frame: (m) => ({ path: m[1], line: +m[2], func: m[3] ?? null }),
	},
	// C#: at Ns.Class.Method(args) in C:\src\File.cs:line 42
	{
		re: /^\s*at ([\w.<>`+|[\]]+)\(.*\) in (.+\.cs):line (\d+)/,
		language: 'csharp',
		innermostLast: false,
		frame: (m) => ({ path: m[2], line: +m[3], func: m[1] }),
	},
	// Java / Kotlin: at com.foo.Bar.method(Bar.java:42)
	{
		re: /^\s*at ([\w$.<>]+)\(([\w$-]+\.(?:java|kt|scala|groovy)):(\d+)\)/,
		language: 'java',
		innermostLast: false,
		frame: (m) => ({ path: javaPath(m[1], m[2]), line: +m[3], func: m[1] }),
	},
	// Rust backtrace location line: at /path/src/x.rs:102:18 (the function is on the line above)
	{
		re: /^\s*at (.+\.rs):(\d+)(?::\d+)?\s*$/,
		language: 'rust',
		innermostLast: false,
		frame: (m) => ({ path: m[1], line: +m[2], func: null }),
	},
	// Node / jest: at func (path:line:col)   |   at path:line:col
	{
		re: /^\s*at (?:async )?(.+?) \((.+?):(\d+):\d+\)\s*$/,
		language: 'javascript',
		innermostLast: false,
		frame: (m) => (m[2].startsWith('node:') ? null : { path: m[2], line: +m[3], func: m[1] }),
	},
	{
		re: /^\s*at (?:async )?((?:[A-Za-z]:)?[^\s()]+?):(\d+):\d+\s*$/,
		language: 'javascript',
		innermostLast: false,
		frame: (m) => (m[1].startsWith('node:') ? null : { path: m[1], line: +m[2], func: null }),
	},
	// vitest: ❯ src/foo.test.ts:12:5   |   ❯ fn src/foo.ts:12:5
	{
		re: /^\s*❯ (?:(\S+) )?(\S+\.[cm]?[jt]sx?):(\d+):\d+/,
		language: 'javascript',
		innermostLast: false,
		frame: (m) => ({ path: m[2], line: +m[3], func: m[1] ?? null }),
	},
	// Go: \t/path/file.go:123 +0x1d (function on the line above); go test: "    foo_test.go:42: message"
	{
		re: /^\s+((?:[A-Za-z]:)?[^\s:]+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/,
		language: 'go',
		innermostLast: false,
		frame: (m) => ({ path: m[1], line: +m[2], func: null }),
	},
	{
		re: /^\s+([\w./-]+_test\.go):(\d+): (.*)$/,
		language: 'go',
		innermostLast: false,
		frame: (m) => ({ path: m[1], line: +m[2], func: null }),
		// go test prints the failure's message on the frame's own line: it is the error.
		error: (m) => ({ type: 'FAIL', message: m[3].trim() || null }),
	},
];

// Java prints the class, not the path: com.foo.Bar.method + Bar.java → com/foo/Bar.java.
function javaPath(qualified: string, file: string): string {
	const parts = qualified.split('.');
	parts.pop(); // the method
	parts.pop(); // the class (its file is `file`, inner classes included)
	return [...parts, file].join('/');
}

const ERROR_LINE = [
	/^Exception in thread "[^"]*" ([\w.$]+)(?::\s*(.*))?$/, // Java
	/^\s*(?:E\s+)?((?:[a-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Failure))(?::\s*(.*))?$/, // Python, JS, Java, C#
	/^\s*(?:Uncaught |Unhandled )?((?:[\w$]+\.)*\w*(?:Error|Exception))(?: \[[\w_]+\])?: (.*)$/,
	/^\s*Caused by: ([\w.$]+): ?(.*)$/,
];

// Source lines printed under frames (Python's `    tmpl = env.get_template(...)`, jest's `> 12 |`).
function isSourceEcho(prev: LineRule | null, line: string): boolean {
	return (
		(prev?.language === 'python' && /^\s{4,}\S/.test(line)) ||
		/^\s*>?\s*\d+ \|/.test(line) ||
		/^\s*\|?\s*\^+\s*$/.test(line)
	);
}

// Lines of the runner's own furniture, not the user's words: headers, separators, summaries.
const RUNNER_NOISE =
	/^\s*(stack backtrace:|Traceback \(most recent call last\):|goroutine \d+ \[.*\]:|\d+: .+::|[\w.$/*()]+\(.*\)$|[=_-]{3,}.*|(FAILED|ERROR|PASSED|FAIL|PASS|ok|---) .*|E\s{2,}.*|\?\?\?|<[\w-]+>:\d+:.*|Tests?:\s+\d+.*|Test Suites?:.*)$/;

/** Parses a pasted failure; text with no frames gives no frames (and its own text as `rest`). */
export function parseFailure(text: string): ParsedFailure {
	const lines = text.split(/\r?\n/);
	const found: { frame: StackFrame; innermostLast: boolean; at: number }[] = [];
	const rest: string[] = [];
	let errorType: string | null = null;
	let errorMessage: string | null = null;
	let prev: LineRule | null = null;
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		const rule = RULES.find((r) => r.re.test(line));
		if (rule) {
			const m = rule.re.exec(line)!;
			const f = rule.frame(m);
			if (rule.error && !errorType) {
				const e = rule.error(m);
				errorType = e.type;
				errorMessage = e.message;
			}
			if (f) {
				const func =
					f.func ?? (rule.language === 'go' || rule.language === 'rust' ? functionAbove(lines[i - 1]) : null);
				found.push({
					frame: { ...f, path: slash(f.path), func, language: rule.language },
					innermostLast: rule.innermostLast,
					at: i,
				});
			}
			prev = rule;
			continue;
		}
		if (isSourceEcho(prev, line)) continue;
		prev = null;
		const rustPanic = /panicked at (?:'(.*)', |"(.*)", )?([^\s:]+\.rs):(\d+)(?::\d+)?:?/.exec(line);
		if (rustPanic) {
			found.push({
				frame: { path: slash(rustPanic[3]), line: +rustPanic[4], func: null, language: 'rust' },
				innermostLast: false,
				at: i,
			});
			errorType ??= 'panic';
			errorMessage ??= rustPanic[1] ?? rustPanic[2] ?? (lines[i + 1]?.trim() || null);
			continue;
		}
		const goPanic = /^panic: (.*)$/.exec(line);
		if (goPanic && !errorType) {
			errorType = 'panic';
			errorMessage = goPanic[1];
			continue;
		}
		// After Python frames, the exception line at column 0 may be any class name (TemplateNotFound).
		const pyError =
			found.length && found[found.length - 1].frame.language === 'python'
				? /^((?:[a-z_]\w*\.)*[A-Z]\w+)(?::\s*(.*))?$/.exec(line)
				: null;
		if (pyError) {
			errorType = pyError[1];
			errorMessage = pyError[2]?.trim() || null;
		}
		if (!errorType) {
			for (const re of ERROR_LINE) {
				const m = re.exec(line);
				if (m) {
					errorType = m[1];
					errorMessage = m[2]?.trim() || null;
					break;
				}
			}
		}
		if (!RUNNER_NOISE.test(line)) rest.push(line);
	}
	// Innermost first: reverse the runs that print innermost last (each traceback on its own).
	const frames = found.some((f) => f.innermostLast)
		? [...found].reverse().map((f) => f.frame)
		: found.map((f) => f.frame);
	return { frames: dedupe(frames), errorType, errorMessage, rest: rest.join('\n').trim() };
}

// Go and Rust print the function on the line before its location.
function functionAbove(line: string | undefined): string | null {
	if (!line) return null;
	const rust = /^\s*\d+: (.+?)(?:::h[0-9a-f]{16})?\s*$/.exec(line);
	if (rust) return rust[1];
	const go = /^([\w./*()@-]+)\([^()]*\)\s*$/.exec(line.trim());
	return go ? go[1] : null;
}

function dedupe(frames: StackFrame[]): StackFrame[] {
	const seen = new Set<string>();
	return frames.filter((f) => {
		const k = `${f.path}:${f.line}`;
		if (seen.has(k)) return false;
		seen.add(k);
		return true;
	});
}

/**
 * The workspace file a printed path means: the candidate sharing the longest suffix of path
 * segments with it (`/home/u/.venv/lib/python3.11/site-packages/jinja2/loaders.py` → `loaders.py`
 * in a checkout of jinja2, `jinja2/loaders.py` in its parent, `src/jinja2/loaders.py` in a src
 * layout). A candidate must match whole or in at least two segments. Returns the file and how
 * many segments matched; ties go to the shorter candidate.
 */
export function matchFramePath(
	printed: string,
	candidates: readonly string[],
): { path: string; segments: number } | null {
	const want = slash(printed).split('/').filter(Boolean);
	let best: { path: string; segments: number } | null = null;
	for (const c of candidates) {
		const have = c.split('/');
		let n = 0;
		while (n < have.length && n < want.length && have[have.length - 1 - n] === want[want.length - 1 - n]) n++;
		// The whole workspace path, or at least package/file (src/ layouts: site-packages/webapp/x.py ↔ src/webapp/x.py).
		if (n === 0 || (n < have.length && n < 2)) continue;
		if (!best || n > best.segments || (n === best.segments && c.length < best.path.length))
			best = { path: c, segments: n };
	}
	return best;
}

/**
 * The segments a frame match shares with the printed path, counting the workspace folder's own
 * name: with the folder `matplotlib` open, `…/site-packages/matplotlib/colors.py` matched to
 * `colors.py` shares `matplotlib/colors.py` — two segments, as in a checkout's parent.
 */
export function withFolder(
	printed: string,
	match: { path: string; segments: number },
	folderNames: readonly string[],
): number {
	const want = slash(printed).split('/').filter(Boolean);
	// Only a match of the whole workspace path reaches the folder's name in the printed path.
	if (match.segments !== match.path.split('/').length) return match.segments;
	const above = want[want.length - 1 - match.segments];
	return above !== undefined && folderNames.includes(above) ? match.segments + 1 : match.segments;
}

/** The leaf of a printed function name (`Route.<computed>` → `Route`, `(*Command).ExecuteC` → `ExecuteC`, `a::b::c` → `c`). */
export function functionLeaf(func: string | null): string | null {
	if (!func) return null;
	const cleaned = func
		.replace(/\[as [^\]]+\]/g, '')
		.replace(/<[^>]*>/g, '')
		.replace(/[()*&]/g, '')
		.trim();
	const parts = cleaned.split(/\.|::|\s+/).filter((p) => /^[A-Za-z_$][\w$]*$/.test(p));
	return parts.length ? parts[parts.length - 1] : null;
}
