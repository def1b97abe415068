import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

export type ContactType = 'PERSON' | 'COMPANY';

export interface Property {
  name: string;
  type: 'SYSTEM' | 'CUSTOM';
  subtype?: string;
  value?: string;
}

export type CampaignRecord = Record<string, unknown>;

export interface ContactDoc {
  _id: number;
  account: number;
  /** Owning user id (`domainUser` in responses). */
  owner: number;
  type: ContactType;
  /** Tag → epoch ms when it was added. Key order is the tag order; one `$set`/`$unset` per tag keeps changes atomic. */
  tag_times: Record<string, number>;
  /** The number of keys of tag_times, kept with every tag write so an add can be refused atomically at TAG_MAX (absent on contacts stored before it existed). */
  tag_count?: number;
  lead_score: number;
  star_value: number;
  contact_company_id: number | null;
  properties: Property[];
  /** Values of the email properties, for lookups by email. */
  emails: string[];
  campaignStatus: CampaignRecord[];
  unsubscribeStatus: CampaignRecord[];
  emailBounceStatus: CampaignRecord[];
  widget_properties: string | null;
  created_time: number;
  updated_time: number;
  /** Bumped by every write; whole-document edits are compare-and-set on it. */
  rev: number;
  /** Present only while a whole-contact edit holds its lease (see withLease in contact.service). */
  lock?: string;
  lock_until?: number;
}

const propertySchema = new Schema<Property>(
  { name: { type: String, required: true }, type: { type: String, required: true }, subtype: String, value: String },
  { _id: false },
);

const contactSchema = new Schema<ContactDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    owner: { type: Number, required: true },
    type: { type: String, required: true, enum: ['PERSON', 'COMPANY'] },
    tag_times: { type: Schema.Types.Mixed, default: () => ({}) },
    tag_count: Number,
    lead_score: { type: Number, default: 0 },
    star_value: { type: Number, default: 0 },
    contact_company_id: { type: Number, default: null },
    properties: { type: [propertySchema], default: [] },
    emails: { type: [String], default: [] },
    campaignStatus: { type: Schema.Types.Mixed, default: () => [] },
    unsubscribeStatus: { type: Schema.Types.Mixed, default: () => [] },
    emailBounceStatus: { type: Schema.Types.Mixed, default: () => [] },
    widget_properties: { type: String, default: null },
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
    rev: { type: Number, default: 0 },
    lock: String,
    lock_until: Number,
  },
  { versionKey: false, minimize: false },
);
contactSchema.index({ account: 1, created_time: 1, _id: 1 }); // C1 list, count
contactSchema.index({ account: 1, type: 1, created_time: 1, _id: 1 }); // companies list, search by type
contactSchema.index({ account: 1, updated_time: 1, _id: 1 }); // C1 by global_sort_key (-)updated_time
contactSchema.index({ account: 1, type: 1, updated_time: 1, _id: 1 }); // companies list and dynamic filters by (-)updated_time
contactSchema.index({ account: 1, emails: 1 }); // search by email, tag and score calls
contactSchema.index({ account: 1, contact_company_id: 1, created_time: 1, _id: 1 }); // persons of a company
contactSchema.index({ account: 1, 'properties.value': 1 }); // search by name/email prefix

export function contactModel(connection: Connection): Model<ContactDoc> {
  return connection.models.Contact ?? connection.model<ContactDoc>('Contact', contactSchema, 'contacts');
}

/** One person email of an account, claimed by one contact: `_id` is `<account>:<email>`. */
export interface EmailClaimDoc {
  _id: string;
  contact: number;
  claimed_at: number;
}

const emailClaimSchema = new Schema<EmailClaimDoc>(
  { _id: String, contact: { type: Number, required: true }, claimed_at: { type: Number, required: true } },
  { versionKey: false },
);
emailClaimSchema.index({ contact: 1 }); // releasing a contact's claims

export function emailClaimModel(connection: Connection): Model<EmailClaimDoc> {
  return connection.models.EmailClaim ?? connection.model<EmailClaimDoc>('EmailClaim', emailClaimSchema, 'contact_emails');
}
