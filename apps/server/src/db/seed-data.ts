import type { UserStatus } from '@users-admin/contract';

/** A small deterministic PRNG (mulberry32): the same seed gives the same demo data everywhere. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface NamePool {
  /** Whether names of this pool are written in Latin script (so an e-mail can be made of them). */
  latin: boolean;
  /** Family name first, as in Japanese and Chinese. */
  familyFirst?: boolean;
  /** Written without a space between the two names. */
  noSpace?: boolean;
  first: readonly string[];
  last: readonly string[];
}

const pools: readonly NamePool[] = [
  {
    latin: true,
    first: [
      'Olivia',
      'James',
      'Amelia',
      'Noah',
      'Isla',
      'Oliver',
      'Ava',
      'George',
      'Grace',
      'Henry',
      'Mia',
      'Jack',
      'Chloe',
      'Liam',
      'Emily',
      'Ethan',
    ],
    last: [
      'Smith',
      'Johnson',
      'Williams',
      'Brown',
      'Taylor',
      'Wilson',
      'Davies',
      'Evans',
      'Thomas',
      'Roberts',
      'Walker',
      'Wright',
      'Hughes',
      'Green',
      'Hall',
      'Wood',
    ],
  },
  {
    latin: true,
    first: [
      'José',
      'María',
      'Lucía',
      'Álvaro',
      'Sofía',
      'Martín',
      'Inés',
      'Hugo',
      'Valentina',
      'Mateo',
      'Camila',
      'Tomás',
    ],
    last: [
      'García',
      'Fernández',
      'González',
      'Rodríguez',
      'López',
      'Martínez',
      'Sánchez',
      'Pérez',
      'Gómez',
      'Núñez',
      'Ibáñez',
      'Peña',
    ],
  },
  {
    latin: true,
    first: [
      'Émile',
      'Chloé',
      'Zoé',
      'Gaëlle',
      'François',
      'Hélène',
      'Jérôme',
      'Léa',
      'Mathéo',
      'Noémie',
      'Anaïs',
      'Benoît',
    ],
    last: [
      'Dubois',
      'Lefèvre',
      'Moreau',
      'Girard',
      'Bonnet',
      'Dupont',
      'Lambert',
      'Fontaine',
      'Rousseau',
      'Chevalier',
      'Béranger',
      'Mercier',
    ],
  },
  {
    latin: true,
    first: [
      'Jürgen',
      'Lena',
      'Lukas',
      'Mia',
      'Björn',
      'Anja',
      'Jörg',
      'Greta',
      'Felix',
      'Sören',
      'Käthe',
      'Maximilian',
    ],
    last: [
      'Müller',
      'Schmidt',
      'Schneider',
      'Fischer',
      'Weiß',
      'Schäfer',
      'Köhler',
      'Groß',
      'Becker',
      'Hoffmann',
      'Krüger',
      'Zimmermann',
    ],
  },
  {
    latin: true,
    first: ['Giulia', 'Lorenzo', 'Chiara', 'Matteo', 'Francesca', 'Niccolò', 'Aurora', 'Leonardo'],
    last: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'De Luca'],
  },
  {
    latin: true,
    first: ['Daan', 'Sanne', 'Bram', 'Femke', 'Jesse', 'Lotte', 'Sem', 'Ilse'],
    last: ['de Vries', 'van den Berg', 'Jansen', 'Bakker', 'Visser', 'Smit', 'van Dijk', 'de Jong'],
  },
  {
    latin: true,
    first: ['João', 'Ana', 'Gonçalo', 'Beatriz', 'Thiago', 'Letícia', 'Caio', 'Luísa'],
    last: ['Silva', 'Santos', 'Oliveira', 'Souza', 'Conceição', 'Gonçalves', 'Araújo', 'Magalhães'],
  },
  {
    latin: false,
    familyFirst: true,
    first: ['太郎', '花子', '健太', '美咲', '翔太', 'さくら', '大輔', 'ゆい'],
    last: ['山田', '佐藤', '鈴木', '高橋', '田中', '伊藤', '渡辺', '中村'],
  },
  {
    latin: false,
    familyFirst: true,
    noSpace: true,
    first: ['伟', '芳', '娜', '秀英', '敏', '静', '强', '磊'],
    last: ['王', '李', '张', '刘', '陈', '杨', '黄', '赵'],
  },
  {
    latin: false,
    first: ['Александр', 'Мария', 'Дмитрий', 'Анна', 'Сергей', 'Ольга'],
    last: ['Иванов', 'Смирнова', 'Кузнецов', 'Попова', 'Соколов', 'Лебедева'],
  },
  {
    latin: false,
    first: ['Γιώργος', 'Ελένη', 'Νίκος', 'Μαρία'],
    last: ['Παπαδόπουλος', 'Οικονόμου', 'Γεωργίου', 'Δημητρίου'],
  },
  {
    latin: false,
    first: ['محمد', 'فاطمة', 'أحمد', 'ليلى'],
    last: ['العلي', 'حسن', 'الخطيب', 'منصور'],
  },
  {
    latin: false,
    first: ['आरव', 'अनन्या', 'विहान', 'दिया'],
    last: ['शर्मा', 'वर्मा', 'पटेल', 'गुप्ता'],
  },
  {
    latin: false,
    familyFirst: true,
    first: ['민준', '서연', '도윤', '지우'],
    last: ['김', '이', '박', '최'],
  },
];

export interface GeneratedUser {
  name: string;
  email: string;
  initials: string | null;
  firstName: string | null;
  lastName: string | null;
  status: UserStatus;
  isExternal: boolean;
  isSystemAdmin: boolean;
}

const pick = <T>(random: () => number, items: readonly T[]): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

const asciiFold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z]+/g, '');

/** The share of generated users with each status. */
export const seedStatusShare: Readonly<Record<UserStatus, number>> = {
  active: 0.68,
  pending: 0.12,
  inactive: 0.1,
  disabled: 0.1,
};

function pickStatus(random: () => number): UserStatus {
  let roll = random();
  for (const status of ['active', 'pending', 'inactive'] as const) {
    roll -= seedStatusShare[status];
    if (roll < 0) return status;
  }
  return 'disabled';
}

/**
 * Generates the n-th user of an organisation: realistic names in many scripts, every status,
 * third-party and platform users, admins, and some users whose initials are not stored.
 */
export function generateUser(random: () => number, n: number, domain: string): GeneratedUser {
  const pool = pick(random, pools);
  const first = pick(random, pool.first);
  const last = pick(random, pool.last);
  const separator = pool.noSpace ? '' : ' ';
  const name = pool.familyFirst ? `${last}${separator}${first}` : `${first}${separator}${last}`;
  const local = pool.latin ? `${asciiFold(first)}.${asciiFold(last)}.${n}` : `user.${n}`;
  const roll = random();
  // About one user in ten has no stored initials (the avatar falls back to first and last name),
  // and one in fifty has no names at all (the avatar shows nothing).
  const noNames = roll < 0.02;
  const noInitials = roll < 0.12;
  const initials = pool.latin
    ? `${first.charAt(0)}${last.replace(/^(de |van den |van |De )/, '').charAt(0)}`.toUpperCase()
    : null;
  return {
    name,
    email: `${local}@${domain}`,
    initials: noInitials ? (random() < 0.5 ? null : '  ') : initials,
    firstName: noNames ? null : first,
    lastName: noNames ? null : last,
    status: pickStatus(random),
    isExternal: random() < 0.15,
    isSystemAdmin: random() < 0.06,
  };
}
