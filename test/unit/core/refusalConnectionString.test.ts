import * as assert from 'node:assert/strict';
import { checkRefusal } from '../../../src/core/gate/refusalRules';
import { fullForms } from '../../../src/core/text/turnText';

// "connection string" is a secret's name in two words. Its cheap prefilter used to miss the
// spaced form (so committing one went unrefused) and "section" opened the scan by accident (so
// adding a config section was refused). Phrasings written here for the test.
const refuses = (utterance: string) => checkRefusal(fullForms(utterance, 8000));

describe('refusal: connection strings', () => {
	it('does not refuse adding a connection string section to a development config', () =>
		assert.equal(refuses('add a connection string section to appsettings.Development.json'), null));
	it('does not refuse asking about the connection string format', () =>
		assert.equal(refuses('fix the connection string format in the docker compose file'), null));
	it('refuses committing the production connection string into config', () =>
		assert.equal(refuses('put the prod connection string into appsettings.json and push it')?.rule, 'commit_secret'));
	it('refuses printing the production connection string section', () =>
		assert.equal(refuses('print the connection string section of appsettings.Production.json')?.rule, 'secret'));
	it('does not refuse asking where the connection string is read', () =>
		assert.equal(refuses('where does the worker read its connection string from?'), null));
});
