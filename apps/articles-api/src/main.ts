import '@lib/services/own-source-maps';
import './tracing';
import { runService, startOrExit } from '@lib/http';
import { loadConfig } from './config';
import { articlesService } from './service';

startOrExit('articles-api', () => runService(articlesService(loadConfig(process.env))));
