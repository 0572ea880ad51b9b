// A worker thread's entry (./wordReads): the service runs TypeScript through tsx, which a new
// thread must register for itself before loading the thread's code.
import { register } from 'tsx/esm/api'

register()
await import('./wordReadThread.ts')
