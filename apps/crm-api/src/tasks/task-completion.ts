import type { FieldIssue } from '@lib/errors';
import type { TaskStatus } from './task.model';

export interface Completion {
  status: TaskStatus;
  progress: number;
  is_complete: boolean;
}

export interface SentCompletion {
  status?: TaskStatus;
  progress?: number;
  is_complete?: boolean;
}

/** The progress a status implies when progress is not sent. */
function progressFor(status: TaskStatus, current: Completion): number {
  if (status === 'COMPLETED') return 100;
  if (status === 'YET_TO_START') return 0;
  return current.progress < 100 ? current.progress : 0;
}

/** The status that sent fields imply when status is not sent. */
function statusFor(sent: SentCompletion, current: Completion): TaskStatus {
  if (sent.progress !== undefined) return sent.progress === 100 ? 'COMPLETED' : sent.progress === 0 ? 'YET_TO_START' : 'IN_PROGRESS';
  if (sent.is_complete === true) return 'COMPLETED';
  if (sent.is_complete === false && current.status === 'COMPLETED') return 'YET_TO_START'; // reopened
  return current.status;
}

/**
 * How `status`, `progress` and `is_complete` stay consistent (the spec leaves it open):
 * COMPLETED ⇔ is_complete true ⇔ progress 100; YET_TO_START ⇒ progress 0; IN_PROGRESS ⇒ progress
 * 0–99. Fields not sent follow from the sent ones (status from progress, progress from status);
 * sent fields that contradict each other are a 400 naming them. `current` is the stored task
 * (YET_TO_START, 0 for a new one).
 */
export function resolveCompletion(current: Completion, sent: SentCompletion): { completion: Completion; issues: FieldIssue[] } {
  const status = sent.status ?? statusFor(sent, current);
  const progress = sent.progress ?? progressFor(status, current);
  const issues: FieldIssue[] = [];
  if (status === 'COMPLETED' && progress !== 100) issues.push({ field: 'progress', message: 'must be 100 when status is COMPLETED' });
  if (status === 'YET_TO_START' && progress !== 0) issues.push({ field: 'progress', message: 'must be 0 when status is YET_TO_START' });
  if (status === 'IN_PROGRESS' && progress === 100) issues.push({ field: 'progress', message: 'must be below 100 when status is IN_PROGRESS (100 means COMPLETED)' });
  const is_complete = status === 'COMPLETED';
  if (sent.is_complete !== undefined && sent.is_complete !== is_complete) {
    issues.push({ field: 'is_complete', message: `must be ${is_complete} when status is ${status}` });
  }
  return { completion: { status, progress, is_complete }, issues };
}
