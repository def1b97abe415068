import { xmlList, xmlRoot } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';
import { CATEGORY_TYPES } from './category.model';

/** A category as the original's Category serializes it. */
export const categoryOutput = z
  .strictObject({
    id: z.number().int(),
    name: z.string().meta({ description: 'The label upper-cased' }),
    label: z.string(),
    entity_type: z.enum(CATEGORY_TYPES),
    order: z.number().int(),
    created_time: z.number().int().meta({ description: 'epoch seconds' }),
    updated_time: z.number().int().meta({ description: 'epoch seconds' }),
  })
  .meta({ id: 'Category' });

export const categoryOne = xmlRoot(categoryOutput, XML_NAMES.category.root);
export const categoryList = xmlList(categoryOutput, XML_NAMES.category.list);
