import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

export const TASK_TYPES = ['CALL', 'EMAIL', 'FOLLOW_UP', 'MEETING', 'MILESTONE', 'SEND', 'TWEET', 'OTHER'] as const;
export const PRIORITY_TYPES = ['HIGH', 'NORMAL', 'LOW'] as const;
export const TASK_STATUSES = ['YET_TO_START', 'IN_PROGRESS', 'COMPLETED'] as const;

export type TaskType = (typeof TASK_TYPES)[number];
export type PriorityType = (typeof PRIORITY_TYPES)[number];
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface TaskDoc {
  _id: number;
  account: number;
  /** Owning user id (`owner_id`, and `taskOwner` in responses). */
  owner: number;
  subject: string;
  type: TaskType;
  priority_type: PriorityType;
  /** Epoch seconds. */
  due: number;
  status: TaskStatus;
  progress: number;
  /** Always `status === 'COMPLETED'` (see task-completion.ts); stored for the pending queries. */
  is_complete: boolean;
  /** Ids of related contacts (full contact objects in responses). */
  contacts: number[];
  /** Ids of related notes. */
  notes: number[];
  created_time: number;
  updated_time: number;
  rev: number;
}

const taskSchema = new Schema<TaskDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    owner: { type: Number, required: true },
    subject: { type: String, required: true },
    type: { type: String, required: true, enum: TASK_TYPES },
    priority_type: { type: String, required: true, enum: PRIORITY_TYPES },
    due: { type: Number, required: true },
    status: { type: String, required: true, enum: TASK_STATUSES },
    progress: { type: Number, required: true },
    is_complete: { type: Boolean, required: true },
    contacts: { type: [Number], default: [] },
    notes: { type: [Number], default: [] },
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
    rev: { type: Number, default: 0 },
  },
  { versionKey: false },
);
taskSchema.index({ account: 1, due: 1, _id: 1 }); // T2 all tasks by due date; T5 due range
taskSchema.index({ account: 1, is_complete: 1, due: 1, _id: 1 }); // T1 and T3 pending tasks; T5 pending filter
taskSchema.index({ account: 1, owner: 1, due: 1, _id: 1 }); // T4 tasks of the caller; T5 owner filter
taskSchema.index({ account: 1, type: 1, due: 1, _id: 1 }); // T5 type filter
taskSchema.index({ account: 1, contacts: 1, due: -1, _id: -1 }); // C10 tasks of a contact, latest due first; contact deletion clean-up
taskSchema.index({ account: 1, notes: 1 }); // tasks relating deleted notes (notes/bulk)

export function taskModel(connection: Connection): Model<TaskDoc> {
  return connection.models.Task ?? connection.model<TaskDoc>('Task', taskSchema, 'tasks');
}
