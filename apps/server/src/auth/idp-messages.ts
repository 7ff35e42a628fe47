import { DEFAULT_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from '@users-admin/contract';

// Over 300 lines because it is nine languages of the same texts, side by side so a translator sees them together.
/**
 * The texts of the identity provider's pages (sign-in, choice of organisation, sign-out, errors),
 * in the Users page's nine languages. English is the source of the shape: a language without one
 * of its texts does not typecheck.
 */
const en = {
  signIn: {
    title: 'Sign in',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    wrongCredentials: 'The email or password is not right.',
    noOrganization: 'This account is not active in any organisation.',
    tooManyAttempts: 'Too many sign-in attempts. Please try again in a few minutes.',
  },
  chooseOrganization: {
    title: 'Choose an organisation',
    legend: 'Sign in to',
    submit: 'Continue',
  },
  signOut: {
    title: 'Sign out',
    question: 'Do you want to sign out?',
    confirm: 'Sign out',
    stay: 'Stay signed in',
  },
  signedOut: {
    title: 'Signed out',
    text: 'You have signed out.',
    signInAgain: 'Sign in again',
  },
  error: {
    title: 'Something went wrong',
    text: 'The sign-in could not be completed. Please go back to the page and try again.',
    expired: 'This sign-in has expired. Please start again.',
    code: 'Error code:',
    details: 'Technical details',
    home: 'Go to Home',
  },
} as const;

export type IdpMessages = {
  readonly [Group in keyof typeof en]: { readonly [Key in keyof (typeof en)[Group]]: string };
};

export const IDP_MESSAGES: Readonly<Record<SupportedLocale, IdpMessages>> = {
  en,
  de: {
    signIn: {
      title: 'Anmelden',
      email: 'E-Mail-Adresse',
      password: 'Passwort',
      submit: 'Anmelden',
      wrongCredentials: 'Die E-Mail-Adresse oder das Passwort ist nicht korrekt.',
      noOrganization: 'Dieses Konto ist in keiner Organisation aktiv.',
      tooManyAttempts: 'Zu viele Anmeldeversuche. Bitte versuchen Sie es in einigen Minuten erneut.',
    },
    chooseOrganization: {
      title: 'Organisation auswählen',
      legend: 'Anmelden bei',
      submit: 'Weiter',
    },
    signOut: {
      title: 'Abmelden',
      question: 'Möchten Sie sich abmelden?',
      confirm: 'Abmelden',
      stay: 'Angemeldet bleiben',
    },
    signedOut: {
      title: 'Abgemeldet',
      text: 'Sie haben sich abgemeldet.',
      signInAgain: 'Erneut anmelden',
    },
    error: {
      title: 'Etwas ist schiefgelaufen',
      text: 'Die Anmeldung konnte nicht abgeschlossen werden. Bitte kehren Sie zur vorherigen Seite zurück und versuchen Sie es erneut.',
      expired: 'Dieser Anmeldevorgang ist abgelaufen. Bitte melden Sie sich erneut an.',
      code: 'Fehlercode:',
      details: 'Technische Details',
      home: 'Zur Startseite',
    },
  },
  es: {
    signIn: {
      title: 'Iniciar sesión',
      email: 'Correo electrónico',
      password: 'Contraseña',
      submit: 'Iniciar sesión',
      wrongCredentials: 'El correo electrónico o la contraseña no son correctos.',
      noOrganization: 'Esta cuenta no está activa en ninguna organización.',
      tooManyAttempts: 'Demasiados intentos de inicio de sesión. Vuelva a intentarlo dentro de unos minutos.',
    },
    chooseOrganization: {
      title: 'Elegir una organización',
      legend: 'Iniciar sesión en',
      submit: 'Continuar',
    },
    signOut: {
      title: 'Cerrar sesión',
      question: '¿Desea cerrar la sesión?',
      confirm: 'Cerrar sesión',
      stay: 'Mantener la sesión iniciada',
    },
    signedOut: {
      title: 'Sesión cerrada',
      text: 'Ha cerrado la sesión.',
      signInAgain: 'Volver a iniciar sesión',
    },
    error: {
      title: 'Se ha producido un error',
      text: 'No se ha podido completar el inicio de sesión. Regrese a la página y vuelva a intentarlo.',
      expired: 'Este inicio de sesión ha caducado. Vuelva a empezar.',
      code: 'Código de error:',
      details: 'Detalles técnicos',
      home: 'Ir a Inicio',
    },
  },
  fr: {
    signIn: {
      title: 'Se connecter',
      email: 'Adresse e-mail',
      password: 'Mot de passe',
      submit: 'Se connecter',
      wrongCredentials: 'L’adresse e-mail ou le mot de passe est incorrect.',
      noOrganization: 'Ce compte n’est actif dans aucune organisation.',
      tooManyAttempts: 'Trop de tentatives de connexion. Veuillez réessayer dans quelques minutes.',
    },
    chooseOrganization: {
      title: 'Choisir une organisation',
      legend: 'Se connecter à',
      submit: 'Continuer',
    },
    signOut: {
      title: 'Se déconnecter',
      question: 'Voulez-vous vous déconnecter\u202f?',
      confirm: 'Se déconnecter',
      stay: 'Rester connecté',
    },
    signedOut: {
      title: 'Déconnexion effectuée',
      text: 'Vous vous êtes déconnecté.',
      signInAgain: 'Se reconnecter',
    },
    error: {
      title: 'Un problème est survenu',
      text: 'La connexion n’a pas pu aboutir. Veuillez revenir à la page et réessayer.',
      expired: 'Cette tentative de connexion a expiré. Veuillez recommencer.',
      code: 'Code d’erreur\u00a0:',
      details: 'Détails techniques',
      home: 'Retour à l’accueil',
    },
  },
  it: {
    signIn: {
      title: 'Accedi',
      email: 'Indirizzo email',
      password: 'Password',
      submit: 'Accedi',
      wrongCredentials: 'L’indirizzo email o la password non sono corretti.',
      noOrganization: 'Questo account non è attivo in nessuna organizzazione.',
      tooManyAttempts: 'Troppi tentativi di accesso. Riprovare tra qualche minuto.',
    },
    chooseOrganization: {
      title: 'Scelta dell’organizzazione',
      legend: 'Organizzazione a cui accedere',
      submit: 'Continua',
    },
    signOut: {
      title: 'Esci',
      question: 'Uscire dall’account?',
      confirm: 'Esci',
      stay: 'Mantieni l’accesso',
    },
    signedOut: {
      title: 'Uscita effettuata',
      text: 'L’uscita dall’account è stata completata.',
      signInAgain: 'Accedi di nuovo',
    },
    error: {
      title: 'Si è verificato un problema',
      text: 'Impossibile completare l’accesso. Tornare alla pagina e riprovare.',
      expired: 'La procedura di accesso è scaduta. Ricominciare dall’inizio.',
      code: 'Codice errore:',
      details: 'Dettagli tecnici',
      home: 'Vai alla Home',
    },
  },
  ja: {
    signIn: {
      title: 'サインイン',
      email: 'メールアドレス',
      password: 'パスワード',
      submit: 'サインイン',
      wrongCredentials: 'メールアドレスまたはパスワードが正しくありません。',
      noOrganization: 'このアカウントは、どの組織でもアクティブではありません。',
      tooManyAttempts: 'サインインの試行回数が多すぎます。数分後にもう一度お試しください。',
    },
    chooseOrganization: {
      title: '組織を選択',
      legend: 'サインイン先',
      submit: '続行',
    },
    signOut: {
      title: 'サインアウト',
      question: 'サインアウトしますか？',
      confirm: 'サインアウト',
      stay: 'サインインしたままにする',
    },
    signedOut: {
      title: 'サインアウトしました',
      text: 'サインアウトが完了しました。',
      signInAgain: 'もう一度サインイン',
    },
    error: {
      title: '問題が発生しました',
      text: 'サインインを完了できませんでした。ページに戻って、もう一度お試しください。',
      expired: 'このサインインの有効期限が切れました。最初からやり直してください。',
      code: 'エラーコード：',
      details: '技術的な詳細',
      home: 'ホームに移動',
    },
  },
  nl: {
    signIn: {
      title: 'Aanmelden',
      email: 'E-mailadres',
      password: 'Wachtwoord',
      submit: 'Aanmelden',
      wrongCredentials: 'Het e-mailadres of het wachtwoord is onjuist.',
      noOrganization: 'Dit account is in geen enkele organisatie actief.',
      tooManyAttempts: 'Te veel aanmeldpogingen. Probeer het over een paar minuten opnieuw.',
    },
    chooseOrganization: {
      title: 'Organisatie kiezen',
      legend: 'Aanmelden bij',
      submit: 'Doorgaan',
    },
    signOut: {
      title: 'Afmelden',
      question: 'Wilt u zich afmelden?',
      confirm: 'Afmelden',
      stay: 'Aangemeld blijven',
    },
    signedOut: {
      title: 'Afgemeld',
      text: 'U bent afgemeld.',
      signInAgain: 'Opnieuw aanmelden',
    },
    error: {
      title: 'Er is iets misgegaan',
      text: 'De aanmelding kon niet worden voltooid. Ga terug naar de pagina en probeer het opnieuw.',
      expired: 'Deze aanmelding is verlopen. Meld u opnieuw aan.',
      code: 'Foutcode:',
      details: 'Technische details',
      home: 'Naar de startpagina',
    },
  },
  pt: {
    signIn: {
      title: 'Fazer login',
      email: 'E-mail',
      password: 'Senha',
      submit: 'Fazer login',
      wrongCredentials: 'O e-mail ou a senha não estão corretos.',
      noOrganization: 'Esta conta não está ativa em nenhuma organização.',
      tooManyAttempts: 'Muitas tentativas de login. Tente novamente em alguns minutos.',
    },
    chooseOrganization: {
      title: 'Escolha uma organização',
      legend: 'Fazer login em',
      submit: 'Continuar',
    },
    signOut: {
      title: 'Sair',
      question: 'Deseja sair da sua conta?',
      confirm: 'Sair',
      stay: 'Manter o login',
    },
    signedOut: {
      title: 'Você saiu',
      text: 'Você saiu da sua conta.',
      signInAgain: 'Fazer login novamente',
    },
    error: {
      title: 'Algo deu errado',
      text: 'Não foi possível concluir o login. Volte à página e tente novamente.',
      expired: 'Esta tentativa de login expirou. Comece novamente.',
      code: 'Código de erro:',
      details: 'Detalhes técnicos',
      home: 'Ir para o Início',
    },
  },
  zh: {
    signIn: {
      title: '登录',
      email: '电子邮件地址',
      password: '密码',
      submit: '登录',
      wrongCredentials: '电子邮件地址或密码不正确。',
      noOrganization: '此账号未在任何组织中处于活跃状态。',
      tooManyAttempts: '登录尝试次数过多。请几分钟后重试。',
    },
    chooseOrganization: {
      title: '选择组织',
      legend: '登录到',
      submit: '继续',
    },
    signOut: {
      title: '退出登录',
      question: '确定要退出登录吗？',
      confirm: '退出登录',
      stay: '保持登录状态',
    },
    signedOut: {
      title: '已退出登录',
      text: '您已退出登录。',
      signInAgain: '重新登录',
    },
    error: {
      title: '出了点问题',
      text: '无法完成登录。请返回页面并重试。',
      expired: '本次登录已过期。请重新开始。',
      code: '错误代码：',
      details: '技术详细信息',
      home: '返回首页',
    },
  },
};

/** The supported language of one language tag ('pt-BR' → pt, 'zh_CN' → zh), if any. */
function supportedLanguage(tag: string): SupportedLocale | undefined {
  const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase();
  return SUPPORTED_LOCALES.find((language) => language === primary);
}

/** Accept-Language's tags, most wanted first; `q=0` means "not this one", `*` names no language. */
function acceptedTags(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, q }) => tag !== '' && tag !== '*' && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}

/**
 * The language of the identity provider's pages: the first supported one of the authorization
 * request's `ui_locales` (space-separated, in order of preference), else of the browser's
 * Accept-Language, else English.
 */
export function chooseIdpLanguage(request: {
  uiLocales?: unknown;
  acceptLanguage?: string | string[] | undefined;
}): SupportedLocale {
  const fromUiLocales = typeof request.uiLocales === 'string' ? request.uiLocales.split(/\s+/) : [];
  const header = Array.isArray(request.acceptLanguage) ? request.acceptLanguage.join(',') : request.acceptLanguage;
  for (const tag of [...fromUiLocales, ...acceptedTags(header ?? '')]) {
    const language = supportedLanguage(tag);
    if (language) return language;
  }
  return DEFAULT_LOCALE;
}

/** `<html lang>` of a page in `language`: the texts are Brazilian Portuguese and Simplified Chinese. */
export function htmlLang(language: SupportedLocale): string {
  return language === 'pt' ? 'pt-BR' : language === 'zh' ? 'zh-Hans' : language;
}
