import '@lib/services/own-source-maps';
import './tracing';
import { runService, startOrExit } from '@lib/http';
import { loadConfig } from './config';
import { crmService } from './service';

startOrExit('crm-api', () => runService(crmService(loadConfig(process.env))));
