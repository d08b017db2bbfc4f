// Maps a free-text detection prompt ("person.hard hat.puppies") onto YOLOX's 80 COCO classes.
// The reference detector is open-vocabulary; ours is not, so every term that maps to no class
// is reported back as unsupported instead of being silently dropped. A term is looked up as
// given, then with its last word made singular, then by its head noun: English noun phrases
// and closed compounds are right-headed, so "coffee table" is a table, "armchair" a chair and
// "businessman" a man. Compound heads are limited to a list of nouns that rarely end unrelated
// words (no "bat", "light" or "phone": "wombat", "flashlight", "headphone").
import { cocoLabels, type CocoLabel } from './labels.js';

const animals: CocoLabel[] = ['bird', 'cat', 'dog', 'horse', 'sheep', 'cow', 'elephant', 'bear', 'zebra', 'giraffe'];

/** Synonyms and umbrella words (singular, lower-case) → COCO classes. Class names map to themselves. */
const synonyms: Record<string, CocoLabel[]> = {
  people: ['person'],
  human: ['person'],
  man: ['person'],
  woman: ['person'],
  child: ['person'],
  kid: ['person'],
  boy: ['person'],
  girl: ['person'],
  baby: ['person'],
  adult: ['person'],
  pedestrian: ['person'],
  guy: ['person'],
  lady: ['person'],
  worker: ['person'],
  player: ['person'],
  rider: ['person'],
  cyclist: ['person'],
  face: ['person'],
  officer: ['person'],
  police: ['person'],
  firefighter: ['person'],
  staff: ['person'],
  employee: ['person'],
  customer: ['person'],
  student: ['person'],
  teacher: ['person'],
  doctor: ['person'],
  nurse: ['person'],
  soldier: ['person'],
  athlete: ['person'],
  tourist: ['person'],
  passenger: ['person'],
  driver: ['person'],
  crowd: ['person'],
  spectator: ['person'],
  farmer: ['person'],
  chef: ['person'],
  waiter: ['person'],
  waitress: ['person'],
  laborer: ['person'],
  labourer: ['person'],
  skier: ['person'],
  surfer: ['person'],
  skateboarder: ['person'],
  pilot: ['person'],
  climber: ['person'],
  hiker: ['person'],
  runner: ['person'],
  armchair: ['chair'],
  stool: ['chair'],
  recliner: ['chair'],
  seat: ['chair'],
  desk: ['dining table'],
  bike: ['bicycle'],
  cycle: ['bicycle'],
  automobile: ['car'],
  auto: ['car'],
  sedan: ['car'],
  taxi: ['car'],
  cab: ['car'],
  suv: ['car'],
  motorbike: ['motorcycle'],
  moped: ['motorcycle'],
  scooter: ['motorcycle'],
  aeroplane: ['airplane'],
  plane: ['airplane'],
  aircraft: ['airplane'],
  jet: ['airplane'],
  airliner: ['airplane'],
  coach: ['bus'],
  locomotive: ['train'],
  lorry: ['truck'],
  pickup: ['truck'],
  'pickup truck': ['truck'],
  ship: ['boat'],
  vessel: ['boat'],
  yacht: ['boat'],
  sailboat: ['boat'],
  canoe: ['boat'],
  kayak: ['boat'],
  'traffic signal': ['traffic light'],
  stoplight: ['traffic light'],
  hydrant: ['fire hydrant'],
  eagle: ['bird'],
  pigeon: ['bird'],
  duck: ['bird'],
  seagull: ['bird'],
  gull: ['bird'],
  parrot: ['bird'],
  kitten: ['cat'],
  kitty: ['cat'],
  puppy: ['dog'],
  pup: ['dog'],
  doggy: ['dog'],
  hound: ['dog'],
  pony: ['horse'],
  foal: ['horse'],
  lamb: ['sheep'],
  cattle: ['cow'],
  bull: ['cow'],
  calf: ['cow'],
  ox: ['cow'],
  rucksack: ['backpack'],
  knapsack: ['backpack'],
  purse: ['handbag'],
  bag: ['handbag', 'backpack', 'suitcase'],
  necktie: ['tie'],
  luggage: ['suitcase'],
  ski: ['skis'],
  ball: ['sports ball'],
  football: ['sports ball'],
  'soccer ball': ['sports ball'],
  basketball: ['sports ball'],
  volleyball: ['sports ball'],
  'tennis ball': ['sports ball'],
  bat: ['baseball bat'],
  mitt: ['baseball glove'],
  racket: ['tennis racket'],
  racquet: ['tennis racket'],
  glass: ['wine glass'],
  mug: ['cup'],
  'coffee cup': ['cup'],
  hotdog: ['hot dog'],
  doughnut: ['donut'],
  sofa: ['couch'],
  settee: ['couch'],
  plant: ['potted plant'],
  houseplant: ['potted plant'],
  table: ['dining table'],
  television: ['tv'],
  monitor: ['tv'],
  screen: ['tv'],
  'tv monitor': ['tv'],
  'computer mouse': ['mouse'],
  'remote control': ['remote'],
  phone: ['cell phone'],
  cellphone: ['cell phone'],
  'mobile phone': ['cell phone'],
  smartphone: ['cell phone'],
  stove: ['oven'],
  fridge: ['refrigerator'],
  teddy: ['teddy bear'],
  'hair dryer': ['hair drier'],
  hairdryer: ['hair drier'],
  vehicle: ['car', 'truck', 'bus', 'motorcycle', 'bicycle', 'train', 'boat', 'airplane'],
  animal: animals,
  pet: ['cat', 'dog'],
  fruit: ['banana', 'apple', 'orange'],
  food: ['banana', 'apple', 'sandwich', 'orange', 'broccoli', 'carrot', 'hot dog', 'pizza', 'donut', 'cake'],
};

const irregularPlurals: Record<string, string> = {
  people: 'people',
  men: 'man',
  women: 'woman',
  children: 'child',
  mice: 'mouse',
  knives: 'knife',
  oxen: 'ox',
  geese: 'bird',
  calves: 'calf',
  sheep: 'sheep',
  skis: 'skis',
  scissors: 'scissors',
  glasses: 'glass',
  bus: 'bus',
};

/** Nouns that head closed compounds ("armchair", "businessman", "motorboat", "cupcake"). */
const compoundHeads = new Set([
  'chair',
  'table',
  'couch',
  'sofa',
  'bed',
  'car',
  'truck',
  'bus',
  'boat',
  'ship',
  'plane',
  'bike',
  'cycle',
  'clock',
  'vase',
  'bottle',
  'cup',
  'bowl',
  'knife',
  'fork',
  'spoon',
  'man',
  'men',
  'woman',
  'women',
  'person',
  'people',
  'boy',
  'girl',
  'dog',
  'cat',
  'bird',
  'horse',
  'cake',
  'pizza',
  'sandwich',
  'bench',
  'umbrella',
]);
/** Closed compounds whose last part is not what they are. */
const notCompounds = new Set(['ottoman', 'snowman', 'talisman', 'caiman', 'german', 'roman', 'woman', 'human', 'scatter', 'toboggan']);

const lookup = new Map<string, CocoLabel[]>([...cocoLabels.map((label) => [label, [label]] as [string, CocoLabel[]]), ...Object.entries(synonyms)]);

function singularWord(word: string): string {
  const irregular = irregularPlurals[word];
  if (irregular) return irregular;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(s|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 3) return word.slice(0, -1);
  return word;
}

/**
 * Splits on ".", ",", ";", "/", newlines and the word "and"; lower-cases; drops articles.
 */
export function splitPrompt(prompt: string): string[] {
  return prompt
    .toLowerCase()
    .split(/[.,;/\n|]+|\band\b|&/)
    .map((term) =>
      term
        .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .map((term) => term.replace(/^(?:(?:a|an|the|some|all|any|every|each|\d+)\s+)+/, ''))
    .filter((term, index, terms) => term !== '' && terms.indexOf(term) === index);
}

/** "armchairs" → chair: the longest known head at the end of one word, leaving 3+ letters before it. */
function compoundHeadClasses(word: string): CocoLabel[] {
  if (notCompounds.has(word)) return [];
  for (let start = 3; start <= word.length - 3; start += 1) {
    const head = word.slice(start);
    if (compoundHeads.has(head)) return lookup.get(singularWord(head)) ?? lookup.get(head) ?? [];
  }
  return [];
}

/**
 * COCO classes a term stands for: exact, then with its last word made singular, then its head
 * noun (the last word of a phrase, the head of a closed compound).
 */
function classesForTerm(term: string): CocoLabel[] {
  const exact = lookup.get(term);
  if (exact) return exact;
  const words = term.split(' ');
  const last = singularWord(words.pop() ?? '');
  const singular = lookup.get([...words, last].join(' '));
  if (singular) return singular;
  if (words.length > 0) {
    const head = lookup.get(last);
    if (head) return head;
  }
  return compoundHeadClasses(last);
}

export interface PromptMapping {
  /** Terms that matched, with the classes they stand for. */
  matched: Array<{ term: string; categories: CocoLabel[] }>;
  /** Every class searched for, without repeats. */
  categories: CocoLabel[];
  /** Terms outside the model's vocabulary. */
  unsupported: string[];
}

export function mapPromptToClasses(prompt: string): PromptMapping {
  const matched: PromptMapping['matched'] = [];
  const unsupported: string[] = [];
  for (const term of splitPrompt(prompt)) {
    const categories = classesForTerm(term);
    if (categories.length > 0) matched.push({ term, categories });
    else unsupported.push(term);
  }
  const categories = [...new Set(matched.flatMap((entry) => entry.categories))];
  return { matched, categories, unsupported };
}
