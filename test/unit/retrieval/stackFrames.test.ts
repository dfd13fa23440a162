/** Pasted failures → frames, per language, on traces shaped like the real ones (written by us). */
import assert from 'node:assert/strict';
import { functionLeaf, matchFramePath, parseFailure, withFolder } from '../../../src/retrieval/stackFrames';

const short = (text: string) => parseFailure(text).frames.map((f) => `${f.path}:${f.line}:${f.func ?? '-'}`);

describe('parseFailure', () => {
	it('Python traceback: innermost first, error type and message, the prose kept', () => {
		const r = parseFailure(`my template stopped loading after the upgrade:
Traceback (most recent call last):
  File "/srv/app/mailer.py", line 27, in send_welcome
    tmpl = env.get_template("emails/welcome.html")
  File "/home/u/.venv/lib/python3.11/site-packages/jinja2/environment.py", line 1010, in get_template
    return self._load_template(name, globals)
  File "/home/u/.venv/lib/python3.11/site-packages/jinja2/loaders.py", line 218, in get_source
    raise TemplateNotFound(template)
jinja2.exceptions.TemplateNotFound: emails/welcome.html`);
		assert.deepEqual(
			r.frames.map((f) => `${f.path}:${f.line}:${f.func}`),
			[
				'/home/u/.venv/lib/python3.11/site-packages/jinja2/loaders.py:218:get_source',
				'/home/u/.venv/lib/python3.11/site-packages/jinja2/environment.py:1010:get_template',
				'/srv/app/mailer.py:27:send_welcome',
			],
		);
		assert.equal(r.errorType, 'jinja2.exceptions.TemplateNotFound');
		assert.equal(r.errorMessage, 'emails/welcome.html');
		assert.match(r.rest, /stopped loading after the upgrade/);
		assert.doesNotMatch(r.rest, /get_template\("emails/);
	});

	it('pytest long format: path:line: in func, and the E line', () => {
		const r = parseFailure(`    def test_parse():
>       assert parse("1") == 2
E       AssertionError: assert 1 == 2

tests/test_parser.py:14: AssertionError
_____________ test_other _____________
src/pkg/parser.py:88: in parse
    return int(x)
E   ValueError: invalid literal for int() with base 10: 'x'`);
		assert.deepEqual(
			r.frames.map((f) => `${f.path}:${f.line}:${f.func ?? '-'}`),
			['src/pkg/parser.py:88:parse', 'tests/test_parser.py:14:-'],
		);
		assert.equal(r.errorType, 'AssertionError');
	});

	it('Node: at func (path:line:col), anonymous frames, node: internals dropped', () => {
		const r = parseFailure(`/app/node_modules/express/lib/router/route.js:211
        throw new Error(msg);
        ^

Error: Route.get() requires a callback function but got a [object Undefined]
    at Route.<computed> [as get] (/app/node_modules/express/lib/router/route.js:211:15)
    at Function.app.<computed> [as get] (/app/node_modules/express/lib/application.js:499:19)
    at Object.<anonymous> (/app/src/routes/users.js:9:5)
    at Module._compile (node:internal/modules/cjs/loader:1105:14)
    at /app/src/server.js:3:1`);
		assert.deepEqual(
			r.frames.map((f) => `${f.path}:${f.line}`),
			[
				'/app/node_modules/express/lib/router/route.js:211',
				'/app/node_modules/express/lib/application.js:499',
				'/app/src/routes/users.js:9',
				'/app/src/server.js:3',
			],
		);
		assert.equal(r.errorType, 'Error');
		assert.match(r.errorMessage ?? '', /requires a callback function/);
		assert.equal(functionLeaf(r.frames[0].func), 'Route');
	});

	it('jest and vitest failures', () => {
		assert.deepEqual(
			short(`  ● cart › applies the discount

    expect(received).toBe(expected) // Object.is equality

      10 |   it('applies the discount', () => {
    > 11 |     expect(total(cart)).toBe(90);
         |                         ^
      at Object.<anonymous> (src/cart.test.ts:11:25)`),
			['src/cart.test.ts:11:Object.<anonymous>'],
		);
		assert.deepEqual(
			short(` FAIL  src/cart.test.ts > cart > applies the discount
AssertionError: expected 100 to be 90
 ❯ src/cart.test.ts:11:25
 ❯ total src/cart.ts:40:9`),
			['src/cart.test.ts:11:-', 'src/cart.ts:40:total'],
		);
	});

	it('Go panic: the function is on the line above its location; go test lines', () => {
		const r = parseFailure(`panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]

goroutine 1 [running]:
github.com/spf13/cobra.(*Command).ExecuteC(0x0)
	/home/u/go/pkg/mod/github.com/spf13/cobra@v1.6.1/command.go:918 +0x2c
github.com/spf13/cobra.(*Command).Execute(...)
	/home/u/go/pkg/mod/github.com/spf13/cobra@v1.6.1/command.go:902
main.main()
	/src/app/main.go:12 +0x25`);
		assert.deepEqual(
			r.frames.map((f) => `${f.path}:${f.line}:${functionLeaf(f.func)}`),
			[
				'/home/u/go/pkg/mod/github.com/spf13/cobra@v1.6.1/command.go:918:ExecuteC',
				'/home/u/go/pkg/mod/github.com/spf13/cobra@v1.6.1/command.go:902:Execute',
				'/src/app/main.go:12:main',
			],
		);
		assert.equal(r.errorType, 'panic');
		assert.deepEqual(
			short(`--- FAIL: TestFlags (0.00s)
    flag_test.go:42: expected "x", got ""
FAIL`),
			['flag_test.go:42:-'],
		);
	});

	it('Java and Kotlin: package path from the class, Caused by', () => {
		const r = parseFailure(`Exception in thread "main" java.lang.IllegalStateException: pool closed
	at com.acme.db.Pool.borrow(Pool.java:77)
	at com.acme.api.UserService.find(UserService.kt:31)
Caused by: java.io.IOException: broken pipe
	at com.acme.db.Conn.write(Conn.java:12)`);
		assert.deepEqual(
			r.frames.map((f) => `${f.path}:${f.line}`),
			['com/acme/db/Pool.java:77', 'com/acme/api/UserService.kt:31', 'com/acme/db/Conn.java:12'],
		);
		assert.equal(r.errorType, 'java.lang.IllegalStateException');
		assert.equal(r.errorMessage, 'pool closed');
	});

	it('Rust: panic location (old and new format) and backtrace frames with their functions', () => {
		const r =
			parseFailure(`thread 'main' panicked at 'cannot access key "name" in JSON array', /home/u/.cargo/registry/src/github.com-1ecc6299db9ec823/serde_json-1.0.87/src/value/index.rs:102:18
stack backtrace:
   0: rust_begin_unwind
             at /rustc/897e37553bba8b42751c67658967889d11ecd120/library/std/src/panicking.rs:584:5
   2: <str as serde_json::value::index::Index>::index_or_insert
             at /home/u/.cargo/registry/src/github.com-1ecc6299db9ec823/serde_json-1.0.87/src/value/index.rs:102:18`);
		assert.equal(
			r.frames[0].path,
			'/home/u/.cargo/registry/src/github.com-1ecc6299db9ec823/serde_json-1.0.87/src/value/index.rs',
		);
		assert.equal(r.frames[0].line, 102);
		assert.equal(r.errorType, 'panic');
		assert.equal(r.errorMessage, 'cannot access key "name" in JSON array');
		assert.ok(r.frames.some((f) => f.path.endsWith('library/std/src/panicking.rs') && f.func === 'rust_begin_unwind'));
		assert.equal(functionLeaf('<str as serde_json::value::index::Index>::index_or_insert'), 'index_or_insert');
		assert.deepEqual(short(`thread 'main' panicked at src/main.rs:10:5:\nindex out of bounds`), ['src/main.rs:10:-']);
	});

	it('C#: at Ns.Class.Method(args) in path:line N', () => {
		const r = parseFailure(`System.NullReferenceException: Object reference not set to an instance of an object.
   at Acme.Orders.OrderService.Total(Order order) in C:\\build\\src\\Acme.Orders\\OrderService.cs:line 58
   at Acme.Api.OrdersController.Get(Int32 id) in C:\\build\\src\\Acme.Api\\OrdersController.cs:line 21`);
		assert.deepEqual(
			r.frames.map((f) => `${f.path}:${f.line}:${functionLeaf(f.func)}`),
			['C:/build/src/Acme.Orders/OrderService.cs:58:Total', 'C:/build/src/Acme.Api/OrdersController.cs:21:Get'],
		);
		assert.equal(r.errorType, 'System.NullReferenceException');
	});

	it('a question with no trace has no frames', () => {
		const r = parseFailure('How is send_file implemented? It reads path.py:not a frame');
		assert.deepEqual(r.frames, []);
		assert.equal(r.errorType, null);
	});
});

describe('matchFramePath', () => {
	const files = [
		'loaders.py',
		'jinja2/loaders.py',
		'src/value/index.rs',
		'lib/router/route.js',
		'command.go',
		'tests/loaders.py',
	];
	it('longest suffix wins; every workspace segment must match', () => {
		assert.deepEqual(matchFramePath('/home/u/.venv/lib/python3.11/site-packages/jinja2/loaders.py', files), {
			path: 'jinja2/loaders.py',
			segments: 2,
		});
		assert.deepEqual(matchFramePath('/home/u/.cargo/registry/src/x/serde_json-1.0.87/src/value/index.rs', files), {
			path: 'src/value/index.rs',
			segments: 3,
		});
		assert.deepEqual(matchFramePath('/app/node_modules/express/lib/router/route.js', files), {
			path: 'lib/router/route.js',
			segments: 3,
		});
		assert.deepEqual(matchFramePath('C:/go/pkg/mod/github.com/spf13/cobra@v1.6.1/command.go', files), {
			path: 'command.go',
			segments: 1,
		});
		assert.equal(matchFramePath('/srv/app/mailer.py', files), null);
		assert.equal(matchFramePath('/x/src/other/index.rs', files), null);
		assert.deepEqual(matchFramePath('/venv/site-packages/webapp/helpers.py', ['src/webapp/helpers.py', 'helpers.py']), {
			path: 'src/webapp/helpers.py',
			segments: 2,
		});
	});
});

describe('withFolder', () => {
	const printed = '/home/u/.venv/lib/python3.11/site-packages/matplotlib/colors.py';
	it('counts the open folder’s own name above a whole-path match', () =>
		assert.equal(withFolder(printed, { path: 'colors.py', segments: 1 }, ['matplotlib']), 2));
	it('does not count another folder’s name', () =>
		assert.equal(withFolder(printed, { path: 'colors.py', segments: 1 }, ['seaborn']), 1));
	it('does not count it above a partial match (the match stops inside the workspace path)', () =>
		assert.equal(withFolder(printed, { path: 'lib/colors.py', segments: 1 }, ['matplotlib']), 1));
	it('counts it above a longer whole-path match', () =>
		assert.equal(
			withFolder(
				'C:\\py\\Lib\\site-packages\\django\\db\\models\\query.py',
				{ path: 'db/models/query.py', segments: 3 },
				['django'],
			),
			4,
		));
	it('leaves a printed path with nothing above the match alone', () =>
		assert.equal(withFolder('colors.py', { path: 'colors.py', segments: 1 }, ['matplotlib']), 1));
});
