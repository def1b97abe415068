import { validationFailed } from '@lib/errors';
import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import { pageReply } from '../http/page-reply';
import { ENROLMENT_PAGE, WORKFLOW_PAGE } from './campaign.paging';
import { enrolmentList, enrolmentOne, workflowList, workflowOne } from './campaign.outputs';
import { enrollForm, subscriberListQuery, subscriberParams, unsubscribeForm, workflowInput, workflowListQuery, workflowParams, workflowUpdate } from './campaign.schemas';
import type { CampaignService, ShownWorkflow } from './campaign.service';
import { enrolmentView, workflowView } from './campaign.view';

const TAGS = ['campaigns'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
const PATH = '/dev/api/workflows';
const one = { description: 'The workflow', schema: workflowOne };
const shownView = ({ item, related }: ShownWorkflow) => workflowView(item, related);
const STEPS_DOC =
  'Steps run in order for each enrolled contact: ADD_TAG (`tag`), REMOVE_TAG (`tag`), ADD_SCORE (`score`, may be negative), CREATE_TASK (`subject`, `task_type`, `priority_type`, `due_in_days`), ' +
  'WAIT (`duration`, `unit` SECONDS, MINUTES, HOURS or DAYS; at most 365 days) and WEBHOOK (`webhook_id`: a signed campaign.step delivery to that webhook). No step sends e-mail: crm-api sends none.';

export function campaignRoutes(campaigns: CampaignService): AnyRoute[] {
  return [
    route.get(PATH, {
      summary: 'List of campaigns (workflows), in creation order',
      description: 'XML when Accept is absent, as the original documents it.',
      request: { query: workflowListQuery },
      defaultMedia: 'xml',
      responses: { 200: { description: 'Workflows: count on the first, cursor on the last when more follow (an empty list when none)', schema: workflowList } },
      handler: async ({ query, store, media }) => pageReply(media, await campaigns.list(store, query), WORKFLOW_PAGE),
    }),
    route.post(PATH, {
      summary: 'Create a workflow',
      description: `\`name\` and \`steps\` (1 to 50) required. ${STEPS_DOC}`,
      request: { body: workflowInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one },
      handler: async ({ body: { id, ...input }, store, user }) => {
        if (id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT /dev/api/workflows to update' }]);
        return { status: 200, body: shownView(await campaigns.create(store, user, input)) };
      },
    }),
    route.put(PATH, {
      summary: 'Rename the workflow with the id in the body and replace its steps',
      description: 'Active subscribers keep their place (the index of their next step) and go on with the new steps from there.',
      request: { body: workflowUpdate, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownView(await campaigns.update(store, body)) }),
    }),
    route.delete(`${PATH}/remove-active-subscriber/:workflow_id/:contact_id`, {
      summary: 'Remove a contact from a campaign: its enrolment stops at once (no further step runs)',
      description: '204 also when the contact was not an active subscriber; 404 when the account has no such workflow or contact.',
      request: { params: subscriberParams },
      responses: { 204: { description: 'Removed' }, 404: notFoundError },
      handler: async ({ params, store }) => {
        await campaigns.removeSubscriber(store, params.workflow_id, params.contact_id);
        return { status: 204 };
      },
    }),
    route.get(`${PATH}/:id`, {
      summary: 'One workflow',
      request: { params: workflowParams },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ params, store }) => ({ status: 200, body: shownView(await campaigns.get(store, params.id)) }),
    }),
    route.get(`${PATH}/:id/subscribers`, {
      summary: 'The enrolments of a workflow (active, done, removed, unsubscribed), in creation order',
      request: { params: workflowParams, query: subscriberListQuery },
      responses: { 200: { description: 'Enrolments: count on the first, cursor on the last when more follow (an empty list when none)', schema: enrolmentList }, 404: notFoundError },
      handler: async ({ params, query, store, media }) => pageReply(media, await campaigns.subscribers(store, params.id, query), ENROLMENT_PAGE),
    }),
    route.delete(`${PATH}/:id`, {
      summary: 'Delete a workflow; its enrolments go with it (no further step runs)',
      request: { params: workflowParams },
      responses: { 204: { description: 'Deleted' }, 404: notFoundError },
      handler: async ({ params, store }) => {
        await campaigns.remove(store, params.id);
        return { status: 204 };
      },
    }),
    route.post('/dev/api/campaigns/enroll/email', {
      summary: 'Add the contact with this email to a campaign (form call: `email`, `workflow-id`)',
      description: 'Its first step is due at once. Enrolling an active subscriber again changes nothing; a finished or removed one starts again; a contact unsubscribed from the workflow is refused (400).',
      request: { body: enrollForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 200: { description: 'The enrolment', schema: enrolmentOne } },
      handler: async ({ body, store }) => ({ status: 200, body: enrolmentView(await campaigns.enroll(store, body.email, body['workflow-id'])) }),
    }),
    route.post('/dev/api/campaigns/unsubscribe', {
      summary: 'Unsubscribe the contact with this email from a campaign (form call: `email`, `workflow-id`; every campaign when `workflow-id` is absent)',
      description: 'Its enrolments stop at once, and a later enrolment in those workflows is refused.',
      request: { body: unsubscribeForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 204: { description: 'Unsubscribed' } },
      handler: async ({ body, store }) => {
        await campaigns.unsubscribe(store, body.email, body['workflow-id']);
        return { status: 204 };
      },
    }),
  ];
}
