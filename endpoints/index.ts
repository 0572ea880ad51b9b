import type { RouteSpec } from '../src/edge/route'
import { createDispatcher } from '../src/edge/router'
import { authRoutes } from './auth'
import { catalog } from './catalog'
import { getContentRoute, listContentRoute, relatedContentRoute } from './content'
import { approveContentRoute, deleteContentRoute, rejectContentRoute, restoreContentRoute, submitContentRoute } from './contentWrites'
import { health, ready } from './health'
import { meta } from './meta'
import { moderationEventsRoute } from './moderationEvents'
import { roleRoutes } from './roles'
import { suggestSlugRoute } from './slug'
import { taxonomyWriteRoutes } from './taxonomyWrites'
import { getTagRoute, listTagsRoute } from './tags'
import { createTagRoute, renameTagRoute, updateTagRoute } from './tagWrites'
import { userRoutes } from './users'

/** Every /api/v1 route. Order matters only between routes whose paths overlap. */
export const routes: RouteSpec[] = [
  meta,
  health,
  ready,
  catalog,
  listContentRoute,
  relatedContentRoute,
  getContentRoute,
  submitContentRoute,
  approveContentRoute,
  rejectContentRoute,
  deleteContentRoute,
  restoreContentRoute,
  moderationEventsRoute,
  listTagsRoute,
  getTagRoute,
  createTagRoute,
  updateTagRoute,
  renameTagRoute,
  suggestSlugRoute,
  ...taxonomyWriteRoutes,
  ...authRoutes,
  ...userRoutes,
  ...roleRoutes,
]

/** The one /api/v1 entry point: server.ts, the Next route and the tests all call it. */
export const dispatchApi = createDispatcher(routes)
