// `m3 servers check --smoke` for `car-price`: the brand list. Offline, the fake answers
// /carros/marcas in the FIPE v1 shape ([{nome, codigo}], as documented at deividfortuna.github.io/fipe).
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'get_car_brands',
  args: {},
  expectation: '"Car Brands Available" with "- <name> (Code: <code>)" lines and "Total brands: <n>"',
  accept: (text) => text.startsWith('Car Brands Available\n\n- ') && /\nTotal brands: \d+$/.test(text),
  offline: {
    env: { M3_UPSTREAM_FIPE_URL: '/fipe/api/v1' },
    routes: [
      {
        path: '/fipe/api/v1/carros/marcas',
        reply: {
          body: [
            { nome: 'Acura', codigo: '1' },
            { nome: 'Agrale', codigo: '2' },
            { nome: 'Alfa Romeo', codigo: '3' },
            { nome: 'VW - VolksWagen', codigo: '59' },
          ],
        },
      },
    ],
  },
};
