import '@lib/services/own-source-maps';
import './tracing';
import { runService, startOrExit } from '@lib/http';
import { loadConfig } from './config';
import { usersService } from './service';

startOrExit('users-api', () => runService(usersService(loadConfig(process.env))));
