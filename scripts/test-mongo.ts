/**
 * npm run test:mongo: the whole suite (`npm test`) on a MongoDB replica set, wherever one exists
 * (CI: .github/workflows/mongo.yml). The server is named as the service names it: DATABASE_URI
 * (mongodb://…?replicaSet=…) or the parts (DATABASE_HOST, DATABASE_ROOT_USER, ...); each test
 * file gets a database of its own, dropped after it. Checked first, with one message: the
 * server answers, is a replica set member, and the URI names the set (transactions need both).
 */
import { spawnSync } from 'node:child_process'

import { MongoClient } from 'mongodb'

import { engineOfUri, resolveDatabaseUri } from '../src/platform/config/databaseUri'

const problems: string[] = []
const uri = resolveDatabaseUri(process.env as Record<string, string | undefined>, problems)
if (problems.length > 0 || engineOfUri(uri) !== 'mongodb') {
  console.error(
    `test:mongo needs a MongoDB replica set: DATABASE_URI='mongodb://host:27017/?replicaSet=rs0' npm run test:mongo${problems.length ? `\n${problems.join('\n')}` : ''}`,
  )
  process.exit(2)
}

const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 })
try {
  const hello = await client.db('admin').command({ hello: 1 })
  if (!hello.setName) throw new Error('the server is not a replica set member (start mongod with --replSet, then rs.initiate())')
  if (!client.options.replicaSet) throw new Error('the URI names no replicaSet= (Payload would save without transactions)')
  console.log(`test:mongo: replica set ${String(hello.setName)}`)
} catch (err) {
  console.error(`test:mongo: cannot use this server: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(2)
} finally {
  await client.close()
}
const run = spawnSync('npm', ['test'], { stdio: 'inherit', env: process.env })
process.exit(run.status ?? 1)
