import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/** The accepted colors, case-sensitive; each states a priority (the spec shows red and green). */
export const EVENT_COLORS = ['red', 'yellow', 'green'] as const;
export type EventColor = (typeof EVENT_COLORS)[number];

export interface EventDoc {
  _id: number;
  account: number;
  title: string;
  /** Epoch seconds; start ≤ end. */
  start: number;
  end: number;
  allDay: boolean;
  color: EventColor | null;
  is_event_starred: boolean;
  /** Ids of related contacts (full contact objects in responses). */
  contacts: number[];
  created_time: number;
  updated_time: number;
  rev: number;
}

const eventSchema = new Schema<EventDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    title: { type: String, required: true },
    start: { type: Number, required: true },
    end: { type: Number, required: true },
    allDay: { type: Boolean, default: false },
    color: { type: String, enum: [...EVENT_COLORS, null], default: null },
    is_event_starred: { type: Boolean, default: false },
    contacts: { type: [Number], default: [] },
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
    rev: { type: Number, default: 0 },
  },
  { versionKey: false },
);
eventSchema.index({ account: 1, start: 1, _id: 1 }); // E1 events overlapping a range (start ≤ range end), by start
eventSchema.index({ account: 1, contacts: 1, start: 1, _id: 1 }); // E2 events of a contact, by start; contact deletion clean-up

export function eventModel(connection: Connection): Model<EventDoc> {
  return connection.models.Event ?? connection.model<EventDoc>('Event', eventSchema, 'events');
}
