import type { z } from '@lib/validation';
import type { contactOutput } from './contact.outputs';
import type { UserView } from '../accounts/user.view';
import type { ContactDoc, Property } from './contact.model';

const propertyView = ({ type, name, subtype, value }: Property) => ({
  type,
  name,
  ...(subtype !== undefined && subtype !== null && { subtype }),
  ...(value !== undefined && value !== null && { value }),
});

/** The wire shape of a contact or company (JSON and XML); the only place that decides it. `owner` is the owner's userView. */
export function contactView(doc: ContactDoc, owner?: UserView): z.input<typeof contactOutput> {
  return {
    id: doc._id,
    type: doc.type,
    tags: Object.keys(doc.tag_times ?? {}),
    lead_score: doc.lead_score,
    star_value: doc.star_value,
    ...(doc.contact_company_id !== null && { contact_company_id: doc.contact_company_id }),
    properties: doc.properties.map(propertyView),
    campaignStatus: doc.campaignStatus,
    unsubscribeStatus: doc.unsubscribeStatus,
    emailBounceStatus: doc.emailBounceStatus,
    created_time: doc.created_time,
    updated_time: doc.updated_time,
    ...(doc.widget_properties !== null && { widget_properties: doc.widget_properties }),
    tags_with_time_json: JSON.stringify(doc.tag_times ?? {}),
    ...(owner && { domainUser: owner }),
  };
}

export type ContactView = ReturnType<typeof contactView>;
