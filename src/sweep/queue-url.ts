/**
 * A Redis queue's URL as messages show it (`--queue`): its password, if it has one, as
 * ***. A refusal or a lost connection printed the URL whole, password and all, into
 * terminals and the logs of batch jobs. The URL itself is used as given.
 */

/** `url` with the password of its user part (`redis://[user]:password@host`) shown as ***. */
export function shownQueue(url: string): string {
  return url.replace(/^(rediss?:\/\/[^:@/]*:)[^/]*@/, '$1***@');
}
