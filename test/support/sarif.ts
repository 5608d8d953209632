/**
 * SARIF 2.1.0 validation for the tests: the part of the OASIS schema (oasis-tcs/sarif-spec
 * Schemata/sarif-schema-2.1.0.json, errata01) that covers every object skilldex writes — sarifLog,
 * run, tool, toolComponent, reportingDescriptor, reportingConfiguration, result, location,
 * physicalLocation, artifactLocation, region, message, multiformatMessageString, propertyBag —
 * restated with the schema's own constraints: the same required properties, types, enums and
 * minimums, and `additionalProperties: false` wherever the schema has it, so a misspelt or invented
 * property fails. Objects skilldex never writes are left out (a log holding one fails, as it
 * should: the writer would have changed). Compiled with Ajv (draft-07), which the MCP SDK already
 * brings into node_modules.
 */
import { Ajv, type ErrorObject } from 'ajv';

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  properties: { ...properties, properties: ref('propertyBag') },
  ...extra,
});
const index = { type: 'integer', minimum: -1 };
const level = { type: 'string', enum: ['none', 'note', 'warning', 'error'] };

/** The schema subset (JSON Schema draft-07). */
export const SARIF_SUBSET_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  ...obj(
    {
      $schema: { type: 'string', format: 'uri' },
      version: { type: 'string', enum: ['2.1.0'] },
      runs: { type: ['array', 'null'], items: ref('run') },
    },
    { required: ['version', 'runs'] },
  ),
  definitions: {
    propertyBag: {
      type: 'object',
      properties: { tags: { type: 'array', uniqueItems: true, items: { type: 'string' } } },
      additionalProperties: true,
    },
    run: obj(
      {
        tool: ref('tool'),
        originalUriBaseIds: { type: 'object', additionalProperties: ref('artifactLocation') },
        results: { type: 'array', items: ref('result') },
        columnKind: { type: 'string', enum: ['utf16CodeUnits', 'unicodeCodePoints'] },
      },
      { required: ['tool'] },
    ),
    tool: obj({ driver: ref('toolComponent') }, { required: ['driver'] }),
    toolComponent: obj(
      {
        name: { type: 'string' },
        version: { type: 'string' },
        semanticVersion: { type: 'string' },
        informationUri: { type: 'string', format: 'uri' },
        rules: { type: 'array', uniqueItems: true, items: ref('reportingDescriptor') },
      },
      { required: ['name'] },
    ),
    reportingDescriptor: obj(
      {
        id: { type: 'string' },
        name: { type: 'string' },
        shortDescription: ref('multiformatMessageString'),
        fullDescription: ref('multiformatMessageString'),
        help: ref('multiformatMessageString'),
        helpUri: { type: 'string', format: 'uri' },
        defaultConfiguration: ref('reportingConfiguration'),
      },
      { required: ['id'] },
    ),
    reportingConfiguration: obj({
      enabled: { type: 'boolean' },
      level,
      rank: { type: 'number', minimum: -1, maximum: 100 },
    }),
    multiformatMessageString: obj(
      { text: { type: 'string' }, markdown: { type: 'string' } },
      { required: ['text'] },
    ),
    message: obj(
      {
        text: { type: 'string' },
        markdown: { type: 'string' },
        id: { type: 'string' },
        arguments: { type: 'array', items: { type: 'string' } },
      },
      { anyOf: [{ required: ['text'] }, { required: ['id'] }] },
    ),
    result: obj(
      {
        ruleId: { type: 'string' },
        ruleIndex: index,
        kind: {
          type: 'string',
          enum: ['notApplicable', 'pass', 'fail', 'review', 'open', 'informational'],
        },
        level,
        message: ref('message'),
        locations: { type: 'array', items: ref('location') },
        relatedLocations: { type: 'array', uniqueItems: true, items: ref('location') },
        partialFingerprints: { type: 'object', additionalProperties: { type: 'string' } },
        fingerprints: { type: 'object', additionalProperties: { type: 'string' } },
        baselineState: { type: 'string', enum: ['new', 'unchanged', 'updated', 'absent'] },
      },
      { required: ['message'] },
    ),
    location: obj({
      id: index,
      physicalLocation: ref('physicalLocation'),
      message: ref('message'),
    }),
    physicalLocation: obj(
      { artifactLocation: ref('artifactLocation'), region: ref('region') },
      { anyOf: [{ required: ['artifactLocation'] }] },
    ),
    artifactLocation: obj({
      uri: { type: 'string', format: 'uri-reference' },
      uriBaseId: { type: 'string' },
      index,
      description: ref('message'),
    }),
    region: obj(
      {
        startLine: { type: 'integer', minimum: 1 },
        startColumn: { type: 'integer', minimum: 1 },
        endLine: { type: 'integer', minimum: 1 },
        endColumn: { type: 'integer', minimum: 1 },
        message: ref('message'),
      },
      { anyOf: [{ required: ['startLine'] }] },
    ),
  },
};

/** Validates `log` against the SARIF subset; returns the schema errors (empty when valid). */
export function sarifErrors(log: unknown): ErrorObject[] {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  const validate = ajv.compile(SARIF_SUBSET_SCHEMA);
  return validate(log) ? [] : (validate.errors ?? []);
}
