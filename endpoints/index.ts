import type { RouteSpec } from '../src/api/route'
import { health, ready } from './health'
import { meta } from './meta'

/** Every /api/v1 route. Order matters only between routes whose paths overlap. */
export const routes: RouteSpec[] = [meta, health, ready]
