/**
 * One tree-sitter query per grammar, verified in ../shared/recipes/tree-sitter/chunk-demo.mjs
 * against the grammar versions pinned in package.json. `@class` captures any container (class,
 * interface, struct, enum, trait, impl); `@function` any function; `@name` its name; `@parent`
 * a Go method's receiver type. Node names are specific to a grammar version: re-verify on upgrade.
 */
import type { GrammarLanguage } from './languages';

const C_FUNC = '(function_definition declarator: (_)) @function';
const JS = `
(class_declaration name: (_) @name) @class
(function_declaration name: (_) @name) @function
(generator_function_declaration name: (_) @name) @function
(method_definition name: (_) @name) @function
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @function
(assignment_expression left: (_) @name right: [(arrow_function) (function_expression)]) @function`;
const TS_EXTRA = `
(abstract_class_declaration name: (_) @name) @class
(interface_declaration name: (_) @name) @class`;

/** The symbol query of each grammar. */
export const SYMBOL_QUERIES: Readonly<Record<GrammarLanguage, string>> = {
	python: `
(class_definition name: (identifier) @name) @class
(function_definition name: (identifier) @name) @function`,
	javascript: JS,
	typescript: JS + TS_EXTRA,
	tsx: JS + TS_EXTRA,
	go: `
(function_declaration name: (identifier) @name) @function
(method_declaration receiver: (parameter_list (parameter_declaration type: [(type_identifier) @parent (pointer_type (type_identifier) @parent) (generic_type) @parent (pointer_type (generic_type) @parent)]))
  name: (field_identifier) @name) @function
(type_declaration (type_spec name: (type_identifier) @name type: [(struct_type) (interface_type)])) @class`,
	java: `
[(class_declaration name: (identifier) @name) (interface_declaration name: (identifier) @name)
 (enum_declaration name: (identifier) @name) (record_declaration name: (identifier) @name)] @class
[(method_declaration name: (identifier) @name) (constructor_declaration name: (identifier) @name)] @function`,
	rust: `
(function_item name: (identifier) @name) @function
[(struct_item name: (type_identifier) @name) (enum_item name: (type_identifier) @name)
 (trait_item name: (type_identifier) @name) (impl_item type: (_) @name)] @class`,
	c: `${C_FUNC}
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @class`,
	cpp: `${C_FUNC}
[(class_specifier name: (_) @name body: (_)) (struct_specifier name: (_) @name body: (_))] @class`,
	'c-sharp': `
[(class_declaration name: (identifier) @name) (struct_declaration name: (identifier) @name)
 (interface_declaration name: (identifier) @name) (record_declaration name: (identifier) @name)
 (enum_declaration name: (identifier) @name)] @class
[(method_declaration name: (identifier) @name) (constructor_declaration name: (identifier) @name)
 (local_function_statement name: (identifier) @name)] @function`,
};

/** Wrapper nodes whose lines belong to the definition inside them (decorators, export, const f = …). */
export const WRAPPER_NODES: ReadonlySet<string> = new Set([
	'decorated_definition',
	'export_statement',
	'lexical_declaration',
	'variable_declaration',
	'template_declaration',
]);
