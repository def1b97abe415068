/**
 * The one guard for requests a service sends out to URLs it was given: news-api's feeds
 * (FEED_ALLOWED_HOSTS) now, crm-api's webhooks (WEBHOOK_ALLOWED_HOSTS, plain http allowed in
 * development) next. https only; every resolved address public unless allow-listed, checked again
 * when the socket connects; redirects followed by hand and checked; a time and a byte limit.
 */
export { effectiveAddress, nonPublicRange, parseAddress, type IpAddress, type NonPublicRange } from './address-ranges';
export { allowedHosts, allowedHostsSetting, readAllowedHosts, type AllowedHosts } from './allowed-hosts';
export { guardedRequest, urlRefusal, type GuardedRequestOptions, type GuardedResponse } from './guarded-request';
export { isRefusal, OutboundError, type OutboundFailure } from './outbound-error';
export { outboundPolicy, systemResolver, type OutboundPolicy, type OutboundPolicyOptions, type Resolver } from './policy';
