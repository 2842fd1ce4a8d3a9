import { objectTypesField } from '../fields/object-types.js';
import { ValidationError, defineModel, f, type Field, type ValidateContext } from 'patchbay';
import { fileNameProblem, mimeTypeProblem } from '../validation/output-headers.js';
import { checkWrittenText } from '../validation/written-text.js';

/** What every rendered template declares: its code, the Jinja2 environment's options and how its output is served. */
function renderedFields(): Record<string, Field> {
  return {
    environment_params: f.json({
      nullable: true,
      object: true,
      default: {},
      helpText: 'Any additional parameters to pass when constructing the Jinja environment (trim_blocks, lstrip_blocks, …)',
    }),
    template_code: f.text({ helpText: 'Jinja template code.' }),
    mime_type: f.string({ max: 50, blank: true, label: 'MIME type', helpText: 'Defaults to text/plain; charset=utf-8' }),
    file_name: f.string({ max: 200, blank: true, helpText: 'Filename to give to the rendered export file' }),
    file_extension: f.string({ max: 15, blank: true, helpText: 'Extension to append to the rendered filename' }),
    as_attachment: f.boolean({ default: true, helpText: 'Download file as attachment' }),
  };
}

/** The fields that become headers of a rendered answer (`Content-Type`, `Content-Disposition`): no line breaks into them. */
function checkOutputHeaders(ctx: ValidateContext): void {
  checkWrittenText(ctx.values, { mime_type: mimeTypeProblem, file_name: fileNameProblem, file_extension: fileNameProblem });
}

/** A Jinja2 template rendering a device's or virtual machine's configuration (or any context it is given). */
export const ConfigTemplate = defineModel('extras.configtemplate', {
  path: 'config-templates',
  verboseName: 'config template',
  fields: {
    name: f.string({ max: 100 }),
    description: f.string({ max: 200, blank: true }),
    ...renderedFields(),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description'],
  features: ['tags', 'changelog'],
  validate: (_row, ctx) => checkOutputHeaders(ctx),
});

/** A Jinja2 template rendering a filtered list of objects of its types (`?export=<name>` on their list). */
export const ExportTemplate = defineModel('extras.exporttemplate', {
  path: 'export-templates',
  verboseName: 'export template',
  fields: {
    object_types: objectTypesField(),
    name: f.string({ max: 100 }),
    description: f.string({ max: 200, blank: true }),
    ...renderedFields(),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description', 'file_name'],
  features: ['changelog'],
  validate: (row, ctx) => {
    checkOutputHeaders(ctx);
    if (typeof row.name === 'string' && row.name.toLowerCase() === 'table') {
      throw ValidationError.of('name', `"${row.name}" is a reserved name. Please choose a different name.`);
    }
  },
});
