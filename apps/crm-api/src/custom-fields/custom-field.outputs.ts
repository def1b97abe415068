import { xmlList, xmlRoot } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';
import { FIELD_SCOPES, FIELD_TYPES } from './custom-field.model';

/** A definition as the original's CustomFieldDef serializes it (fields it has no value for left out). */
export const customFieldOutput = z
  .strictObject({
    id: z.number().int(),
    field_type: z.enum(FIELD_TYPES),
    field_label: z.string(),
    field_description: z.string().optional(),
    field_data: z.string().optional(),
    is_required: z.boolean(),
    searchable: z.boolean(),
    search_key: z.string().optional().meta({ description: 'Only when searchable: the label without spaces or other signs, plus _time_epoch (DATE) or _number (NUMBER)' }),
    scope: z.enum(FIELD_SCOPES),
    position: z.number().int(),
  })
  .meta({ id: 'CustomField' });

export const customFieldOne = xmlRoot(customFieldOutput, XML_NAMES.customField.root);
export const customFieldList = xmlList(customFieldOutput, XML_NAMES.customField.list);
