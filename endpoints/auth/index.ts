import type { RouteSpec } from '../../src/edge/route'
import { login } from './login'
import { logout } from './logout'
import { me } from './me'
import { mySubmissions } from './mySubmissions'
import { passwordChange } from './passwordChange'
import { refresh } from './refresh'
import { register } from './register'

export const authRoutes: RouteSpec[] = [register, login, refresh, logout, me, mySubmissions, passwordChange]
