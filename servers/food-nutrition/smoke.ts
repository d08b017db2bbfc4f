// Smoke call of the food_nutrition_mcp server: nutrition of one apple. Offline, a fake of
// api.edamam.com answers the parser and nutrients requests in their documented shapes.
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'get_nutrition',
  args: { query: '1 medium apple' },
  expectation: '"Nutrition for: 1 medium apple" and an Energy line',
  accept: (text) => text.startsWith('Nutrition for: 1 medium apple\n- Energy: '),
  requiresEnv: ['EDAMAM_APP_ID', 'EDAMAM_APP_KEY'],
  offline: {
    env: { M3_UPSTREAM_EDAMAM_URL: '' },
    credentials: { EDAMAM_APP_ID: 'offline-id', EDAMAM_APP_KEY: 'offline-key' },
    routes: [
      // Shapes of developer.edamam.com/food-database-api-docs: parser (parsed[].food/measure/quantity) and nutrients (totalNutrients).
      {
        path: '/api/food-database/v2/parser',
        reply: {
          body: {
            text: '1 medium apple',
            parsed: [
              {
                quantity: 1,
                measure: { uri: 'http://www.edamam.com/ontologies/edamam.owl#Measure_unit', label: 'Whole' },
                food: { foodId: 'food_a1gb9ubb72c7snbuxr3weagwv0dd', label: 'Apple' },
              },
            ],
            hints: [],
          },
        },
      },
      {
        path: '/api/food-database/v2/nutrients',
        method: 'POST',
        reply: { body: { calories: 95, totalWeight: 182, totalNutrients: { ENERC_KCAL: { label: 'Energy', quantity: 94.64, unit: 'kcal' } } } },
      },
    ],
  },
};
