import '@lib/services/own-source-maps';
import './tracing';
import { runService, startOrExit } from '@lib/http';
import { loadConfig } from './config';
import { newsService } from './service';

startOrExit('news-api', () => runService(newsService(loadConfig(process.env))));
